import { field, formatNumber } from "../output.js";
import type { ScoreComparison } from "./compare.js";
import { displayAddress, scoreMove, shareMove } from "./display.js";
import type { PairedScore } from "./paired-scores.js";
import type { Totals } from "./shares.js";
import { formatDelta } from "../report/format.js";

/** How many addresses the terminal lists in the top and in each list of changes. */
export interface TerminalLengths {
  top: number;
  changes: number;
}

/**
 * The comparison as lines a person reads: the counts, the totals, the
 * vesting count, the top of the proposed policy with each address's share
 * before and after, and the largest changes by score and by share.
 */
export function comparisonLines(
  comparison: ScoreComparison,
  lengths: TerminalLengths,
): string[] {
  const { totals, largest } = comparison;
  const list = (
    label: string,
    how: string,
    pairs: PairedScore[],
    length: number,
  ) => listLines(label, how, pairs.slice(0, length), totals);
  return [
    ...summaryLines(comparison),
    ...list(
      "top (proposed)",
      "the highest proposed scores",
      comparison.top,
      lengths.top,
    ),
    ...list("largest gains", "by score", largest.scoreGains, lengths.changes),
    ...list("largest losses", "by score", largest.scoreLosses, lengths.changes),
    ...list(
      "largest share gains",
      "by share of the total",
      largest.shareGains,
      lengths.changes,
    ),
    ...list(
      "largest share losses",
      "by share of the total",
      largest.shareLosses,
      lengths.changes,
    ),
  ];
}

function summaryLines(comparison: ScoreComparison): string[] {
  const { counts, totals } = comparison;
  const scored = formatNumber(comparison.scoredBefore);
  return [
    field(
      "addresses",
      `${formatNumber(comparison.addresses)} named by either policy: ` +
        `${formatNumber(counts.gained)} gained, ${formatNumber(counts.lost)} lost, ` +
        `${formatNumber(counts.changed)} changed, ${formatNumber(counts.unchanged)} unchanged` +
        (counts.unscored === 0
          ? ""
          : `, ${formatNumber(counts.unscored)} scored 0 by both`),
    ),
    field("total", totalMove(totals)),
    field(
      "vesting",
      `${formatNumber(comparison.belowVestingMinimum)} of ${scored} users scored now ` +
        "would score below vesting's minimum, ⌊current score × 0.5⌋ (minimum score ratio 0.5, " +
        "truncated; at the minimum a user still vests in full; it compares scores, not shares)",
    ),
    field(
      "shares halved",
      `${formatNumber(comparison.shareBelowHalf)} of ${scored} users' shares of the total ` +
        "would fall below half their current share",
    ),
  ];
}

/** `207 → 182 (-25)`. */
export function totalMove(totals: Totals): string {
  return (
    `${formatNumber(totals.before)} → ${formatNumber(totals.after)} ` +
    `(${formatDelta(totals.after - totals.before)})`
  );
}

function listLines(
  label: string,
  how: string,
  pairs: PairedScore[],
  totals: Totals,
): string[] {
  if (pairs.length === 0) return [field(label, `${how}: none`)];
  return [
    field(label, how),
    ...pairs.map(
      (pair) =>
        `  ${displayAddress(pair.address)}  ${scoreMove(pair)}  share ${shareMove(pair, totals)}`,
    ),
  ];
}
