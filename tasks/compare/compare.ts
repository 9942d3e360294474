import { CHANGE_KINDS, type ChangeKind, changeKind } from "./change-kind.js";
import { type PairedScore, pairScores } from "./paired-scores.js";
import {
  shareChangeNumerator,
  shareFallsBelowHalf,
  type Totals,
} from "./shares.js";
import { fallsBelowVestingMinimum } from "./vesting.js";
import { largerFirst, Leaders } from "../scores/leaders.js";
import type { ScoreRow } from "../scoring/score-rows.js";

/** The largest changes, each list first-first and cut to its length. */
interface LargestChanges {
  /** Score up the most (`after − before`, largest first). */
  scoreGains: PairedScore[];
  /** Score down the most (largest fall first). */
  scoreLosses: PairedScore[];
  /** Share of the total up the most, in exact fractions. */
  shareGains: PairedScore[];
  /** Share of the total down the most. */
  shareLosses: PairedScore[];
}

/** What a policy change does to a window's scores. */
export interface ScoreComparison {
  /** Every address either policy names. */
  addresses: number;
  counts: Record<ChangeKind, number>;
  totals: Totals;
  /** Addresses the current policy scores: those vesting holds to a minimum. */
  scoredBefore: number;
  /**
   * Of them, those whose proposed score is below vesting's minimum:
   * ⌊current score / 2⌋, truncated as the contract truncates.
   */
  belowVestingMinimum: number;
  /** Of them, those whose proposed share is below half their current share. */
  shareBelowHalf: number;
  largest: LargestChanges;
  /** The highest proposed scores, ties by address. */
  top: PairedScore[];
}

const total = (rows: readonly ScoreRow[]): bigint =>
  rows.reduce((sum, row) => sum + row.score, 0n);

/**
 * Compares two policies' answers over one window (each in address order),
 * in one pass of their merge and exact integer arithmetic throughout: the
 * counts, the totals, the vesting count, and the first `shown` of each
 * list of largest changes and of the top.
 */
export function compareScores(
  current: readonly ScoreRow[],
  proposed: readonly ScoreRow[],
  shown: number,
): ScoreComparison {
  const totals = { before: total(current), after: total(proposed) };
  const leaders = changeLeaders(totals, shown);
  const counts = Object.fromEntries(CHANGE_KINDS.map((k) => [k, 0])) as Record<
    ChangeKind,
    number
  >;
  let addresses = 0;
  let scoredBefore = 0;
  let belowVestingMinimum = 0;
  let shareBelowHalf = 0;
  for (const pair of pairScores(current, proposed)) {
    addresses++;
    counts[changeKind(pair)]++;
    if (pair.before > 0n) scoredBefore++;
    if (fallsBelowVestingMinimum(pair.before, pair.after))
      belowVestingMinimum++;
    if (shareFallsBelowHalf(pair, totals)) shareBelowHalf++;
    leaders.offer(pair);
  }
  return {
    addresses,
    counts,
    totals,
    scoredBefore,
    belowVestingMinimum,
    shareBelowHalf,
    ...leaders.lists(),
  };
}

/** The lists of largest changes and the top, kept as the pairs go by. */
function changeLeaders(totals: Totals, shown: number) {
  const scoreChange = (p: PairedScore): bigint => p.after - p.before;
  const shareChange = (p: PairedScore): bigint =>
    shareChangeNumerator(p, totals);
  const keep = (key: (pair: PairedScore) => bigint): Leaders<PairedScore> =>
    new Leaders(shown, largerFirst(key));
  const lists = {
    scoreGains: keep(scoreChange),
    scoreLosses: keep((p) => -scoreChange(p)),
    shareGains: keep(shareChange),
    shareLosses: keep((p) => -shareChange(p)),
    top: keep((p) => p.after),
  };
  return {
    offer(pair: PairedScore): void {
      const score = scoreChange(pair);
      const share = shareChange(pair);
      if (score > 0n) lists.scoreGains.offer(pair);
      if (score < 0n) lists.scoreLosses.offer(pair);
      if (share > 0n) lists.shareGains.offer(pair);
      if (share < 0n) lists.shareLosses.offer(pair);
      if (pair.after > 0n) lists.top.offer(pair);
    },
    lists(): { largest: LargestChanges; top: PairedScore[] } {
      return {
        largest: {
          scoreGains: lists.scoreGains.list(),
          scoreLosses: lists.scoreLosses.list(),
          shareGains: lists.shareGains.list(),
          shareLosses: lists.shareLosses.list(),
        },
        top: lists.top.list(),
      };
    },
  };
}
