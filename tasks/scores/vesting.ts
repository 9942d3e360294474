/**
 * The vesting rule a policy change is measured against, as
 * initia-labs/vip-contract's `sources/vesting.move` applies it: a vesting
 * made for a stage scored `l2_score` keeps `minimum_score =
 * bigdecimal::mul_by_u64_truncate(minimum_score_ratio, l2_score)`, the
 * product truncated to an integer, and a later stage vests in full when
 * `claim_info.l2_score >= value.minimum_score` (less in proportion
 * otherwise). The ratio is governance's, 0.5 by default
 * (`DEFAULT_MIN_SCORE_RATIO` 5 / 10 in `sources/vip.move`).
 *
 * What is compared is the user's **score**, not their share of the total:
 * a policy that scales every score down by three keeps every share and
 * still leaves every user below the minimum.
 */

/**
 * The minimum score a user scored `before` must keep: ⌊before × 0.5⌋ =
 * ⌊before / 2⌋, truncated as the contract truncates (scores are ≥ 0, so
 * bigint division, which truncates toward zero, is that floor).
 */
function vestingMinimum(before: bigint): bigint {
  return before / 2n;
}

/**
 * Whether a user scored `before` under the current policy would, scored
 * `after` under the proposed one, fall below vesting's minimum: `after <
 * ⌊before / 2⌋`. So 7 → 3 is not below (⌊7 / 2⌋ = 3), 7 → 2 is; 1 → 0 is not
 * (⌊1 / 2⌋ = 0). A user the current policy does not score (0) has no
 * minimum to fall below.
 */
export function fallsBelowVestingMinimum(
  before: bigint,
  after: bigint,
): boolean {
  return before > 0n && after < vestingMinimum(before);
}
