import type { VipScore } from "../../types/ethers-contracts/index.js";
import type { ScoreTable } from "./table.js";

/** Page size of `getScores`, as the VIP agent reads. */
export const READ_PAGE = 500n;

/** Every score of `stage` on chain (lowercase address → score), paged through `getScores` as the VIP agent does. */
export async function readStageScores(score: VipScore, stage: bigint): Promise<Map<string, bigint>> {
  const onChain = new Map<string, bigint>();
  for (let offset = 0n; ; offset += READ_PAGE) {
    const page = await score.getScores(stage, offset, READ_PAGE);
    for (const entry of page) onChain.set(entry.addr.toLowerCase(), entry.amount);
    if (BigInt(page.length) < READ_PAGE) return onChain;
  }
}

export interface Difference {
  address: string;
  /** The file's line, for entries of the file. */
  line?: number;
  expected: bigint;
  /** Undefined when the address was never scored on chain. */
  actual?: bigint;
}

/**
 * Where the chain does not hold exactly the file: entries whose score differs or is missing, and addresses
 * scored on chain but absent from the file with a non-zero score (absent means zero).
 */
export function compareScores(table: ScoreTable, onChain: Map<string, bigint>): Difference[] {
  const differences: Difference[] = [];
  for (let i = 0; i < table.length; i++) {
    const actual = onChain.get(table.addressHex(i));
    if (actual !== table.score(i)) differences.push({ address: table.address(i), line: table.line(i), expected: table.score(i), actual });
  }
  for (const [address, actual] of onChain) {
    if (actual !== 0n && table.indexOf(address) === undefined) differences.push({ address, expected: 0n, actual });
  }
  return differences;
}

export function describeDifference(d: Difference, file: string): string {
  const where = d.line === undefined ? `${d.address} (not in ${file})` : `${file}:${d.line}: ${d.address}`;
  return `${where}: file ${d.expected}, chain ${d.actual === undefined ? "never scored" : d.actual}`;
}
