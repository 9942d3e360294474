import { expect } from "chai";

import { addr, randomAnswer, rows } from "./fixture.js";
import { compareScores } from "../../tasks/compare/compare.js";
import type { PairedScore } from "../../tasks/compare/paired-scores.js";
import { sharePointsChange } from "../../tasks/compare/shares.js";
import { fallsBelowVestingMinimum } from "../../tasks/compare/vesting.js";
import { ERRORS } from "../../tasks/error-catalog.js";
import { thrownParams } from "../helpers/failure.js";

const [a1, a2, a3, a4, a5, a6, a7, a8] = [1, 2, 3, 4, 5, 6, 7, 8].map(addr) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];

/**
 * Worked by hand. Current total 207, proposed total 182.
 * a1 100→100 unchanged; a2 50→24 changed (24 < ⌊50/2⌋ = 25: below
 * vesting's minimum); a3 30→15 changed (exactly half: not below); a4
 * 20→absent lost; a5 0→absent, a8 absent→0: unscored; a6 7→3 changed (3 =
 * ⌊7/2⌋, the minimum truncated: not below); a7 absent→40 gained.
 */
const CURRENT = {
  [a1]: 100n,
  [a2]: 50n,
  [a3]: 30n,
  [a4]: 20n,
  [a5]: 0n,
  [a6]: 7n,
};
const PROPOSED = {
  [a1]: 100n,
  [a2]: 24n,
  [a3]: 15n,
  [a6]: 3n,
  [a7]: 40n,
  [a8]: 0n,
};

const addresses = (list: PairedScore[]): string[] => list.map((p) => p.address);

describe("scores:compare's comparison", () => {
  it("counts gained, lost, changed, unchanged and unscored, with both totals", () => {
    const result = compareScores(rows(CURRENT), rows(PROPOSED), 10);
    expect(result.addresses).to.equal(8);
    expect(result.counts).to.deep.equal({
      gained: 1,
      lost: 1,
      changed: 3,
      unchanged: 1,
      unscored: 2,
    });
    expect(result.totals).to.deep.equal({ before: 207n, after: 182n });
  });

  it("counts the users whose score falls below vesting's minimum, ⌊current / 2⌋, exactly at the boundary", () => {
    const result = compareScores(rows(CURRENT), rows(PROPOSED), 10);
    // a1, a2, a3, a4, a6 are scored now; a2 (24 < 25) and a4 (0 < 10)
    // fall below the minimum; a3 (15 = 15) and a6 (3 = ⌊3.5⌋) do not.
    expect(result.scoredBefore).to.equal(5);
    expect(result.belowVestingMinimum).to.equal(2);
    // Shares: a2 24/182 = 0.1319 against half of 50/207 = 0.1208, not
    // below; a4 0 below; a6 3/182 = 0.01648 against 7/414 = 0.01691, below.
    expect(result.shareBelowHalf).to.equal(2);
  });

  it("truncates the minimum as vesting.move does: an odd score keeps ⌊before / 2⌋, and 1 → 0 keeps it", () => {
    // mul_by_u64_truncate(0.5, before): 7 → 3, 1 → 0, 2 → 1. A user vests
    // in full at `after >= minimum`, so only a score below it counts.
    const cases: [bigint, bigint, boolean][] = [
      [7n, 4n, false],
      [7n, 3n, false], // ⌊7 / 2⌋ = 3: at the minimum, not below
      [7n, 2n, true],
      [1n, 0n, false], // ⌊1 / 2⌋ = 0: nothing to fall below
      [2n, 1n, false],
      [2n, 0n, true],
      [31n, 15n, false],
      [31n, 14n, true],
    ];
    for (const [before, after, below] of cases) {
      const result = compareScores(
        rows({ [a1]: before }),
        rows({ [a1]: after }),
        10,
      );
      expect(result.belowVestingMinimum, `${before} → ${after}`).to.equal(
        below ? 1 : 0,
      );
    }
    expect(fallsBelowVestingMinimum(7n, 3n)).to.equal(false);
    expect(fallsBelowVestingMinimum(7n, 2n)).to.equal(true);
    expect(fallsBelowVestingMinimum(0n, 0n)).to.equal(false);
  });

  it("lists the largest changes by score and by share, exactly", () => {
    const { largest, top } = compareScores(rows(CURRENT), rows(PROPOSED), 10);
    expect(addresses(largest.scoreGains)).to.deep.equal([a7]);
    // -26, -20, -15, -4.
    expect(addresses(largest.scoreLosses)).to.deep.equal([a2, a4, a3, a6]);
    // Share changes over 207 × 182: a7 +8280, a1 +2500 (its score kept, the
    // total down); a2 -4132, a4 -3640, a3 -2355, a6 -653.
    expect(addresses(largest.shareGains)).to.deep.equal([a7, a1]);
    expect(addresses(largest.shareLosses)).to.deep.equal([a2, a4, a3, a6]);
    expect(addresses(top)).to.deep.equal([a1, a7, a2, a3, a6]);
    expect(largest.scoreLosses[0]).to.deep.equal({
      address: a2,
      before: 50n,
      after: 24n,
    });
  });

  it("shows a share's change in percentage points, four decimals rounded half up", () => {
    const totals = { before: 207n, after: 182n };
    // 8280 / 37674 = 0.2197802…; 2500 / 37674 = 0.0663588…; -653 / 37674 = -0.0173329…
    expect(sharePointsChange({ before: 0n, after: 40n }, totals)).to.equal(
      "+21.9780",
    );
    expect(sharePointsChange({ before: 100n, after: 100n }, totals)).to.equal(
      "+6.6359",
    );
    expect(sharePointsChange({ before: 7n, after: 3n }, totals)).to.equal(
      "-1.7333",
    );
    expect(sharePointsChange({ before: 0n, after: 0n }, totals)).to.equal(
      "0.0000",
    );
  });

  it("breaks ties by address and cuts each list to its length", () => {
    const current = { [a3]: 10n, [a1]: 10n, [a2]: 10n, [a4]: 1n };
    const proposed = { [a3]: 5n, [a1]: 5n, [a2]: 5n, [a4]: 1n };
    const { largest, top } = compareScores(rows(current), rows(proposed), 2);
    expect(addresses(largest.scoreLosses)).to.deep.equal([a1, a2]);
    expect(addresses(top)).to.deep.equal([a1, a2]);
    expect(largest.scoreGains).to.deep.equal([]);
  });

  it("treats a policy that scores nobody as every share 0: all lost, all below vesting's minimum", () => {
    const current = { [a1]: 3n, [a2]: 9n, [a3]: 0n };
    const gone = compareScores(rows(current), [], 10);
    expect(gone.counts).to.deep.equal({
      gained: 0,
      lost: 2,
      changed: 0,
      unchanged: 0,
      unscored: 1,
    });
    expect(gone.totals).to.deep.equal({ before: 12n, after: 0n });
    expect(gone.belowVestingMinimum).to.equal(2);
    expect(gone.shareBelowHalf).to.equal(2);
    expect(addresses(gone.largest.shareLosses)).to.deep.equal([a2, a1]);
    expect(gone.top).to.deep.equal([]);

    const fresh = compareScores([], rows(current), 10);
    expect(fresh.counts.gained).to.equal(2);
    expect(fresh.scoredBefore).to.equal(0);
    expect(fresh.belowVestingMinimum).to.equal(0);
    expect(addresses(fresh.largest.shareGains)).to.deep.equal([a2, a1]);

    const none = compareScores([], [], 10);
    expect(none.addresses).to.equal(0);
    expect(none.totals).to.deep.equal({ before: 0n, after: 0n });
  });

  it("counts a change of scale: every share kept, every user below vesting's minimum", () => {
    const current = { [a1]: 30n, [a2]: 60n, [a3]: 90n };
    const proposed = { [a1]: 10n, [a2]: 20n, [a3]: 30n };
    const result = compareScores(rows(current), rows(proposed), 10);
    expect(result.belowVestingMinimum).to.equal(3);
    expect(result.shareBelowHalf).to.equal(0);
    expect(result.largest.shareGains).to.deep.equal([]);
    expect(result.largest.shareLosses).to.deep.equal([]);
  });

  it("refuses rows out of address order or given twice, naming the side", () => {
    const unordered = [
      { address: a2, score: 1n },
      { address: a1, score: 1n },
    ];
    expect(
      thrownParams(
        () => compareScores(unordered, [], 1),
        ERRORS.REPORT.COMPARE.COMPARE_ROWS_UNORDERED,
      ),
    ).to.deep.equal({ side: "current", address: a1 });
    const twice = [
      { address: a1, score: 1n },
      { address: a1, score: 2n },
    ];
    expect(
      thrownParams(
        () => compareScores(rows({ [a1]: 1n }), twice, 1),
        ERRORS.REPORT.COMPARE.COMPARE_ROWS_UNORDERED,
      ),
    ).to.deep.equal({ side: "proposed", address: a1 });
  });

  it("agrees with a computation from the definitions on pseudo-random answers", () => {
    for (const seed of [1n, 2n, 3n, 4n, 5n]) {
      const current = randomAnswer(seed, 300, 400, 1000n);
      const proposed = randomAnswer(seed + 100n, 300, 400, 1000n);
      const expected = fromDefinitions(current, proposed, 7);
      const result = compareScores(rows(current), rows(proposed), 7);
      expect(result.counts, `seed ${seed}`).to.deep.equal(expected.counts);
      expect(result.belowVestingMinimum).to.equal(expected.belowVesting);
      expect(result.shareBelowHalf).to.equal(expected.shareBelowHalf);
      expect(addresses(result.largest.scoreGains)).to.deep.equal(
        expected.scoreGains,
      );
      expect(addresses(result.largest.scoreLosses)).to.deep.equal(
        expected.scoreLosses,
      );
      expect(addresses(result.largest.shareGains)).to.deep.equal(
        expected.shareGains,
      );
      expect(addresses(result.largest.shareLosses)).to.deep.equal(
        expected.shareLosses,
      );
      expect(addresses(result.top)).to.deep.equal(expected.top);
    }
  });
});

/**
 * The comparison worked out from the words, with maps and full sorts: a
 * share is score / total (0 when the total is 0); vesting's minimum is
 * vesting.move's `mul_by_u64_truncate(ratio, score)` of the current score,
 * ratio 5 / 10, truncated; fractions compared by cross-multiplying.
 */
function fromDefinitions(
  current: Record<string, bigint>,
  proposed: Record<string, bigint>,
  shown: number,
) {
  const all = [...new Set([...Object.keys(current), ...Object.keys(proposed)])];
  const sum = (scores: Record<string, bigint>): bigint =>
    Object.values(scores).reduce((s, v) => s + v, 0n);
  const [t0, t1] = [sum(current) || 1n, sum(proposed) || 1n];
  const b = (a: string): bigint => current[a] ?? 0n;
  const f = (a: string): bigint => proposed[a] ?? 0n;
  const counts = { gained: 0, lost: 0, changed: 0, unchanged: 0, unscored: 0 };
  let belowVesting = 0;
  let shareBelowHalf = 0;
  for (const a of all) {
    const [scoredBefore, scoredAfter] = [b(a) > 0n, f(a) > 0n];
    if (scoredBefore && scoredAfter)
      counts[b(a) === f(a) ? "unchanged" : "changed"]++;
    else if (scoredBefore) counts.lost++;
    else if (scoredAfter) counts.gained++;
    else counts.unscored++;
    // Below the minimum: less than ⌊b · 5 / 10⌋.
    if (scoredBefore && f(a) < (b(a) * 5n) / 10n) belowVesting++;
    // f/t1 < (b/t0)/2  ⇔  f·t0·2 < b·t1.
    if (scoredBefore && f(a) * t0 * 2n < b(a) * t1) shareBelowHalf++;
  }
  const tie = (x: string, y: string): number => (x < y ? -1 : 1);
  const ordered = (
    keep: (a: string) => boolean,
    first: (x: string, y: string) => boolean,
  ): string[] =>
    all
      .filter(keep)
      .sort((x, y) => (first(x, y) ? -1 : first(y, x) ? 1 : tie(x, y)))
      .slice(0, shown);
  const delta = (a: string): bigint => f(a) - b(a);
  // x's share rises more than y's: (fx − fy)/t1 > (bx − by)/t0.
  const shareMore = (x: string, y: string): boolean =>
    (f(x) - f(y)) * t0 > (b(x) - b(y)) * t1;
  const shareUp = (a: string): boolean => f(a) * t0 > b(a) * t1;
  const shareDown = (a: string): boolean => f(a) * t0 < b(a) * t1;
  return {
    counts,
    belowVesting,
    shareBelowHalf,
    scoreGains: ordered(
      (a) => delta(a) > 0n,
      (x, y) => delta(x) > delta(y),
    ),
    scoreLosses: ordered(
      (a) => delta(a) < 0n,
      (x, y) => delta(x) < delta(y),
    ),
    shareGains: ordered(shareUp, shareMore),
    shareLosses: ordered(shareDown, (x, y) => shareMore(y, x)),
    top: ordered(
      (a) => f(a) > 0n,
      (x, y) => f(x) > f(y),
    ),
  };
}
