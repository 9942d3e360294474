import { createHash } from "node:crypto";

import { expect } from "chai";

import { scoreCsv } from "../../tasks/scoring/publish.js";
import {
  packedScore,
  packedTotal,
  packRows,
  type ScoreRow,
  unpackRows,
  withZeros,
} from "../../tasks/scoring/score-rows.js";

const MAX_UINT64 = 2n ** 64n - 1n;

/** `count` rows of pseudo-random addresses and scores (0 and uint64's maximum among them), by address. */
function rowsOf(count: number): ScoreRow[] {
  const rows: ScoreRow[] = [];
  for (let i = 0; i < count; i++) {
    const hash = createHash("sha256").update(`row ${i}`).digest();
    const score =
      i % 7 === 0
        ? 0n
        : i % 11 === 0
          ? MAX_UINT64
          : hash.readBigUInt64BE(20) >> BigInt(i % 64);
    rows.push({ address: `0x${hash.toString("hex", 0, 20)}`, score });
  }
  return rows.sort((a, b) => (a.address < b.address ? -1 : 1));
}

/** The score file as its definition says: the header, then a line per row. */
const plainCsv = (rows: ScoreRow[]) =>
  Buffer.from(
    `address,score\n${rows.map((r) => `${r.address},${r.score}\n`).join("")}`,
    "latin1",
  );

describe("score rows packed from the engine to the files, with no object per row", () => {
  it("writes the score file byte for byte as its lines joined, from 0 rows to 5,000", () => {
    for (const count of [0, 1, 2, 5_000]) {
      const rows = rowsOf(count);
      expect(scoreCsv(packRows(rows)).equals(plainCsv(rows))).to.equal(true);
    }
    const extremes = [
      { address: `0x${"00".repeat(19)}01`, score: 0n },
      { address: `0x${"ff".repeat(20)}`, score: MAX_UINT64 },
    ];
    expect(scoreCsv(packRows(extremes)).toString("latin1")).to.equal(
      `address,score\n0x${"00".repeat(19)}01,0\n0x${"ff".repeat(20)},18446744073709551615\n`,
    );
  });

  it("finds an address's score by its bytes, whatever its case, and totals the scores", () => {
    const rows = rowsOf(1_000);
    const packed = packRows(rows);
    for (const row of rows.filter((_, i) => i % 37 === 0)) {
      expect(packedScore(packed, row.address)).to.equal(row.score);
      expect(
        packedScore(packed, row.address.toUpperCase().replace("0X", "0x")),
      ).to.equal(row.score);
    }
    expect(packedScore(packed, `0x${"12".repeat(20)}`)).to.equal(undefined);
    expect(packedScore(packed, "0x12")).to.equal(undefined);
    expect(packedScore(packRows([]), `0x${"12".repeat(20)}`)).to.equal(
      undefined,
    );
    expect(packedTotal(packed)).to.equal(
      rows.reduce((sum, row) => sum + row.score, 0n),
    );
  });

  it("adds with 0 each address on chain it does not score, in address order, once", () => {
    const rows = rowsOf(500);
    const scored = rows.filter((_, i) => i % 2 === 0);
    const missing = rows.filter((_, i) => i % 2 === 1).map((r) => r.address);
    const onChain = [
      ...missing.map((a) => a.toUpperCase().replace("0X", "0x")),
      ...missing.slice(0, 10),
      ...scored.slice(0, 20).map((r) => r.address),
      `0x${"00".repeat(20)}`,
      `0x${"ff".repeat(20)}`,
    ];
    const { rows: merged, zeroed } = withZeros(packRows(scored), onChain);
    const expected = [
      ...scored,
      ...[...missing, `0x${"00".repeat(20)}`, `0x${"ff".repeat(20)}`].map(
        (address) => ({ address, score: 0n }),
      ),
    ].sort((a, b) => (a.address < b.address ? -1 : 1));
    expect(unpackRows(merged)).to.deep.equal(expected);
    expect(zeroed).to.deep.equal(
      [...missing, `0x${"00".repeat(20)}`, `0x${"ff".repeat(20)}`].sort(),
    );
    // As many as a stage may clear: an argument list of them once overflowed the stack.
    const many = rowsOf(200_000).map((row) => row.address);
    const cleared = withZeros(packRows(scored), many);
    expect(cleared.rows.scores.length).to.equal(
      new Set([...many, ...scored.map((r) => r.address)]).size,
    );
    expect(
      unpackRows(cleared.rows).every(
        (r, i, all) => i === 0 || (all[i - 1] as ScoreRow).address < r.address,
      ),
    ).to.equal(true);
    const none = packRows(scored);
    expect(
      withZeros(
        none,
        scored.map((r) => r.address),
      ).rows,
    ).to.equal(none);
    expect(withZeros(packRows([]), [missing[0] as string])).to.deep.equal({
      rows: packRows([{ address: missing[0] as string, score: 0n }]),
      zeroed: [missing[0]],
    });
  });
});
