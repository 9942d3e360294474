import { sharePercent } from "../report/model.js";

/** Both policies' totals: every share's denominator. */
export interface Totals {
  before: bigint;
  after: bigint;
}

/**
 * A total as a share's denominator: a policy that scores nobody has a total
 * of 0, and every address's share under it is 0 (0 / 1), as the report's
 * `sharePercent` says.
 */
function denominator(total: bigint): bigint {
  return total === 0n ? 1n : total;
}

/**
 * The change of an address's share, `after / Tafter − before / Tbefore`, as
 * its numerator over the denominator `Tbefore × Tafter` that every address
 * shares: two changes compare exactly by their numerators, in integers.
 */
export function shareChangeNumerator(
  pair: { before: bigint; after: bigint },
  totals: Totals,
): bigint {
  return (
    pair.after * denominator(totals.before) -
    pair.before * denominator(totals.after)
  );
}

/**
 * Whether an address's share under the proposed policy is below half its
 * share under the current one: `after / Tafter < before / (2 × Tbefore)`,
 * decided as `2 × after × Tbefore < before × Tafter`. Shown beside the
 * vesting count, which compares scores, not shares.
 */
export function shareFallsBelowHalf(
  pair: { before: bigint; after: bigint },
  totals: Totals,
): boolean {
  return (
    pair.before > 0n &&
    2n * pair.after * denominator(totals.before) <
      pair.before * denominator(totals.after)
  );
}

/**
 * A share as an exact fraction, `score/total` (`0` for a score of 0): what
 * the CSV holds, from which any precision can be worked out.
 */
export function shareFraction(score: bigint, total: bigint): string {
  return score === 0n ? "0" : `${score}/${total}`;
}

/**
 * A share's change in percentage points, signed, four decimals rounded half
 * up (away from zero) as the report rounds a share: for display only.
 */
export function sharePointsChange(
  pair: { before: bigint; after: bigint },
  totals: Totals,
): string {
  const numerator = shareChangeNumerator(pair, totals);
  const magnitude = sharePercent(
    numerator < 0n ? -numerator : numerator,
    denominator(totals.before) * denominator(totals.after),
  );
  if (/^[0.]+$/.test(magnitude)) return magnitude;
  return `${numerator < 0n ? "-" : "+"}${magnitude}`;
}
