import { expect } from "chai";

import { address, BIG_SCORE } from "./fixture.js";
import { stageChanges } from "../../tasks/report/changes.js";
import { mergeBuckets, scoreHistogram } from "../../tasks/report/histogram.js";
import { rankOf, sharePercent } from "../../tasks/report/model.js";
import { StageRanks } from "../../tasks/report/ranks.js";
import { topEntries } from "../../tasks/report/top.js";
import { eip55 } from "../../tasks/scores/checksum.js";
import { ScoreTable } from "../../tasks/scores/table.js";

function table(scores: [string, bigint][]): ScoreTable {
  const result = new ScoreTable();
  scores.forEach(([hex, score], index) =>
    result.add(Buffer.from(hex.slice(2), "hex"), score, index + 2),
  );
  return result;
}

const checksummed = (n: number): string => eip55(address(n).slice(2));

/** The table ranked as the pages rank it: every row, highest first. */
function rankTable(scores: ScoreTable): {
  entries: ReturnType<typeof topEntries>;
  total: bigint;
} {
  const ranks = new StageRanks(scores);
  return {
    entries: topEntries(scores, ranks, scores.length),
    total: ranks.total,
  };
}

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
    // A score of 1 is never shown as 0: two significant digits.
    expect(entries[2]?.share).to.equal("0.0000000000000000051");
  });

  it("ranks by a binary search as rankOf counts: ties share a rank", () => {
    const scores = [9n, 3n, 3n, 0n, 12n, 3n, 2n ** 64n - 1n];
    const ranks = new StageRanks(
      table(scores.map((score, n) => [address(n + 1), score])),
    );
    for (const score of [...scores, 1n, 4n, 13n, 2n ** 63n])
      expect(ranks.rankOf(score), String(score)).to.equal(
        rankOf(score, scores),
      );
    expect(ranks.count).to.equal(scores.length);
    expect([...ranks.scores()]).to.deep.equal(
      [...scores].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );
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
    const before = table([
      [address(1), 100n],
      [address(2), 50n],
      [address(3), 10n],
      [address(4), 5n],
    ]);
    const now = table([
      [address(5), 200n],
      [address(1), 40n],
      [address(2), 50n],
      [address(3), 30n],
      [address(6), 1n],
    ]);
    const ranks = new StageRanks(now);
    const changes = stageChanges(7n, before, now, ranks, 25);
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
    const cut = stageChanges(7n, before, now, ranks, 1);
    expect([cut.added.length, cut.addedCount, cut.moves.length]).to.deep.equal([
      1, 2, 1,
    ]);
  });
});
