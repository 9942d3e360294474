import { expect } from "chai";

/**
 * A score file's text (`address,score`), read independently of the package's
 * own reader, so a test checks what was written, not what that reader makes
 * of it.
 */
export function parseScoreCsv(text: string): Map<string, bigint> {
  const [header, ...lines] = text.trim().split("\n");
  expect(header).to.equal("address,score");
  return new Map(
    lines.map((line) => {
      const [address = "", score = ""] = line.split(",");
      return [address, BigInt(score)];
    }),
  );
}
