/** An address's place in its stage. */
export interface RankedEntry {
  /** EIP-55 checksummed. */
  address: string;
  score: bigint;
  /** 1 + the number of addresses with a higher score: ties share a rank. */
  rank: number;
  /** Percent of the stage's total, as `shareOfTotal` writes it. */
  share: string;
}

/** Decimals of a share's percent: 0.0001 % of the total. */
const SHARE_DECIMALS = 4;

/**
 * `score`'s share of `total` as a percent with `SHARE_DECIMALS` decimals,
 * rounded half up, in BigInt arithmetic: exact for any uint64 scores.
 * (scores:explain and scores:compare print this; the report's pages print
 * `shareOfTotal`, which keeps a small share's digits.)
 */
export function sharePercent(score: bigint, total: bigint): string {
  if (total === 0n) return `0.${"0".repeat(SHARE_DECIMALS)}`;
  const scale = 10n ** BigInt(SHARE_DECIMALS + 2);
  const units = (score * scale * 2n + total) / (2n * total);
  const unit = 10n ** BigInt(SHARE_DECIMALS);
  const fraction = (units % unit).toString().padStart(SHARE_DECIMALS, "0");
  return `${units / unit}.${fraction}`;
}

/**
 * The rank of `score` among `scores`: 1 + the number of higher scores, the
 * rule the report ranks by (ties share a rank).
 */
export function rankOf(score: bigint, scores: Iterable<bigint>): number {
  let higher = 0;
  for (const other of scores) if (other > score) higher++;
  return higher + 1;
}
