import { expect } from "chai";

import { stageChanges } from "../../tasks/report/changes.js";
import { mergeBuckets, scoreHistogram } from "../../tasks/report/histogram.js";
import {
  type RankedEntry,
  rankTable,
  sharePercent,
} from "../../tasks/report/model.js";
import { eip55 } from "../../tasks/scores/checksum.js";
import { ScoreTable } from "../../tasks/scores/table.js";
import { address, BIG_SCORE } from "./fixture.js";

function table(scores: [string, bigint][]): ScoreTable {
  const result = new ScoreTable();
  scores.forEach(([hex, score], index) =>
    result.add(Buffer.from(hex.slice(2), "hex"), score, index + 2),
  );
  return result;
}

const checksummed = (n: number): string => eip55(address(n).slice(2));

describe("scores:report's model", () => {
  it("ranks the highest first; ties share a rank, ordered by address", () => {
    const [a, b, c, d, e] = [
      address(1),
      address(2),
      address(3),
      address(4),
      address(5),
    ];
    const { entries, total } = rankTable(
      table([
        [a, 5n],
        [b, 7n],
        [c, 7n],
        [d, 3n],
        [e, 0n],
      ]),
    );
    expect(total).to.equal(22n);
    const tied = [b, c].sort().map((hex) => eip55(hex.slice(2)));
    expect(entries.map((entry) => [entry.address, entry.rank])).to.deep.equal([
      [tied[0], 1],
      [tied[1], 1],
      [eip55(a.slice(2)), 3],
      [eip55(d.slice(2)), 4],
      [eip55(e.slice(2)), 5],
    ]);
  });

  it("keeps every uint64 exact and its share exact to four decimals", () => {
    const max = 2n ** 64n - 1n;
    const { entries, total } = rankTable(
      table([
        [address(1), max],
        [address(2), BIG_SCORE],
        [address(3), 1n],
      ]),
    );
    expect(total).to.equal(max + BIG_SCORE + 1n);
    expect(entries.map((entry) => entry.score)).to.deep.equal([
      max,
      BIG_SCORE,
      1n,
    ]);
    // 2^64-1 / (2^64-1 + 2^60 + 123456790) = 94.1176…%
    expect(entries[0]?.share).to.equal("94.1176");
    expect(entries[2]?.share).to.equal("0.0000");
  });

  it("rounds a share half up, in BigInt arithmetic", () => {
    expect(sharePercent(1n, 3n)).to.equal("33.3333");
    expect(sharePercent(2n, 3n)).to.equal("66.6667");
    expect(sharePercent(1n, 1n)).to.equal("100.0000");
    expect(sharePercent(1n, 2_000_000n)).to.equal("0.0001"); // 0.00005 % rounds up
    expect(sharePercent(1n, 2_000_001n)).to.equal("0.0000");
    expect(sharePercent(0n, 0n)).to.equal("0.0000");
  });

  it("counts scores in powers of two, from the lowest bucket to the highest", () => {
    const buckets = scoreHistogram([0n, 1n, 5n, 6n, 7n, 2n ** 63n]);
    expect(buckets).to.have.length(65);
    expect(buckets[0]).to.deep.equal({ low: 0n, high: 0n, count: 1 });
    expect(buckets[1]).to.deep.equal({ low: 1n, high: 1n, count: 1 });
    expect(buckets[3]).to.deep.equal({ low: 4n, high: 7n, count: 3 });
    expect(buckets[64]).to.deep.equal({
      low: 2n ** 63n,
      high: 2n ** 64n - 1n,
      count: 1,
    });
    expect(scoreHistogram([8n, 9n])).to.deep.equal([
      { low: 8n, high: 15n, count: 2 },
    ]);
    expect(scoreHistogram([])).to.deep.equal([]);
  });

  it("merges neighbouring buckets into at most so many bars, each range exact", () => {
    const buckets = scoreHistogram([0n, 1n, 5n, 6n, 7n, 2n ** 63n]);
    const merged = mergeBuckets(buckets, 16);
    expect(merged).to.have.length(13); // 65 buckets in groups of 5
    expect(merged[0]).to.deep.equal({ low: 0n, high: 15n, count: 5 });
    expect(merged[12]).to.deep.equal({
      low: 2n ** 59n,
      high: 2n ** 64n - 1n,
      count: 1,
    });
    expect(merged.reduce((sum, bucket) => sum + bucket.count, 0)).to.equal(6);
    expect(mergeBuckets(buckets.slice(0, 4), 16)).to.deep.equal(
      buckets.slice(0, 4),
    );
  });

  it("lists what changed from the previous stage: new, gone, biggest moves", () => {
    const entry = (n: number, score: bigint): RankedEntry => ({
      address: checksummed(n),
      score,
      rank: 0,
      share: "0",
    });
    const before = [entry(1, 100n), entry(2, 50n), entry(3, 10n), entry(4, 5n)];
    const now = [
      entry(5, 200n),
      entry(1, 40n),
      entry(2, 50n),
      entry(3, 30n),
      entry(6, 1n),
    ];
    const changes = stageChanges(7n, before, now, 25);
    expect(changes.previous).to.equal(7n);
    expect(changes.added.map((e) => e.address)).to.deep.equal([
      checksummed(5),
      checksummed(6),
    ]);
    expect(changes.gone.map((e) => [e.address, e.score])).to.deep.equal([
      [checksummed(4), 5n],
    ]);
    expect(changes.moves).to.deep.equal([
      { address: checksummed(1), before: 100n, after: 40n, delta: -60n },
      { address: checksummed(3), before: 10n, after: 30n, delta: 20n },
    ]);
    expect([
      changes.addedCount,
      changes.goneCount,
      changes.movedCount,
    ]).to.deep.equal([2, 1, 2]);
    const cut = stageChanges(7n, before, now, 1);
    expect([cut.added.length, cut.addedCount, cut.moves.length]).to.deep.equal([
      1, 2, 1,
    ]);
  });
});
