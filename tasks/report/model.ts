import { eip55 } from "../scores/checksum.js";
import type { ScoreTable } from "../scores/table.js";

/** An address's place in its stage. */
export interface RankedEntry {
  /** EIP-55 checksummed. */
  address: string;
  score: bigint;
  /** 1 + the number of addresses with a higher score: ties share a rank. */
  rank: number;
  /** Percent of the stage's total, to `SHARE_DECIMALS` decimals. */
  share: string;
}

/** Decimals of a share's percent: 0.0001 % of the total. */
const SHARE_DECIMALS = 4;

/**
 * `score`'s share of `total` as a percent with `SHARE_DECIMALS` decimals,
 * rounded half up, in BigInt arithmetic: exact for any uint64 scores.
 */
export function sharePercent(score: bigint, total: bigint): string {
  if (total === 0n) return `0.${"0".repeat(SHARE_DECIMALS)}`;
  const scale = 10n ** BigInt(SHARE_DECIMALS + 2);
  const units = (score * scale * 2n + total) / (2n * total);
  const unit = 10n ** BigInt(SHARE_DECIMALS);
  const fraction = (units % unit).toString().padStart(SHARE_DECIMALS, "0");
  return `${units / unit}.${fraction}`;
}

/** Highest score first; equal scores by address, so the order is total. */
function byRank(
  a: { key: string; score: bigint },
  b: { key: string; score: bigint },
): number {
  if (a.score !== b.score) return a.score > b.score ? -1 : 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/**
 * Every entry of the table, ranked: highest score first, ties by address,
 * each with its rank and share.
 */
export function rankTable(table: ScoreTable): {
  entries: RankedEntry[];
  total: bigint;
} {
  const rows: { key: string; score: bigint }[] = [];
  for (let i = 0; i < table.length; i++)
    rows.push({ key: table.addressHex(i), score: table.score(i) });
  rows.sort(byRank);
  const total = table.totalScore();
  const entries: RankedEntry[] = [];
  let rank = 0;
  rows.forEach((row, index) => {
    if (index === 0 || row.score !== rows[index - 1]?.score) rank = index + 1;
    entries.push({
      address: eip55(row.key.slice(2)),
      score: row.score,
      rank,
      share: sharePercent(row.score, total),
    });
  });
  return { entries, total };
}

/**
 * The rank of `score` among `scores`: 1 + the number of higher scores, the
 * rule `rankTable` ranks by (ties share a rank).
 */
export function rankOf(score: bigint, scores: Iterable<bigint>): number {
  let higher = 0;
  for (const other of scores) if (other > score) higher++;
  return higher + 1;
}
