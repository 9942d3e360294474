/**
 * The vesting rule a policy change is measured against (facts §11, §8): "a
 * stage's reward is `funded_reward × l2_score / total_l2_score`, and vesting
 * compares later scores with half of the first (`minimum_score_ratio`
 * 0.5)"; "vesting asks a user to keep a share of an earlier score later
 * (minimum score ratio 0.5), so the scale must stay stable between stages".
 *
 * What is compared is the user's **score**, not their share of the total:
 * a policy that scales every score down by three keeps every share and
 * still leaves every user below the minimum.
 */
const MINIMUM_SCORE_RATIO = { numerator: 1n, denominator: 2n } as const;

/**
 * Whether a user scored `before` under the current policy would, scored
 * `after` under the proposed one, fall below vesting's minimum: `after <
 * before × 1/2`, decided exactly as `after × 2 < before × 1`. A user the
 * current policy does not score (0) has no minimum to fall below; one the
 * proposed policy no longer scores (0) falls below it.
 */
export function fallsBelowVestingMinimum(
  before: bigint,
  after: bigint,
): boolean {
  const { numerator, denominator } = MINIMUM_SCORE_RATIO;
  return before > 0n && after * denominator < before * numerator;
}
