import type { RankedEntry } from "./model.js";
import { shareOfTotal } from "./numbers.js";
import type { StageRanks } from "./ranks.js";
import { eip55 } from "../scores/checksum.js";
import { Leaders } from "../scores/leaders.js";
import type { ScoreTable } from "../scores/table.js";

/** Two rows' addresses in byte order (the order of their lowercase hex). */
export function compareAddresses(
  a: ScoreTable,
  i: number,
  b: ScoreTable,
  j: number,
): number {
  const [x, y] = [a.addressBytes(i), b.addressBytes(j)];
  for (let k = 0; k < x.length; k++) {
    const d = (x[k] ?? 0) - (y[k] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Rows of `table`, the highest score first, ties by address. */
export function byScoreThenAddress(
  table: ScoreTable,
): (i: number, j: number) => number {
  return (i, j) => {
    const [x, y] = [table.score(i), table.score(j)];
    if (x !== y) return x > y ? -1 : 1;
    return compareAddresses(table, i, table, j);
  };
}

/** A row as the pages list it: checksummed, ranked, its share. */
export function rankedEntry(
  table: ScoreTable,
  index: number,
  ranks: StageRanks,
): RankedEntry {
  const score = table.score(index);
  return {
    address: eip55(table.addressHex(index).slice(2)),
    score,
    rank: ranks.rankOf(score),
    share: shareOfTotal(score, ranks.total),
  };
}

/**
 * The stage's `shown` highest scores, ties by address: kept as the rows go
 * by (a row's index, nothing else), so a million rows make no list.
 */
export function topEntries(
  table: ScoreTable,
  ranks: StageRanks,
  shown: number,
): RankedEntry[] {
  const top = new Leaders<number>(shown, byScoreThenAddress(table));
  for (let i = 0; i < table.length; i++) top.offer(i);
  return top.list().map((index) => rankedEntry(table, index, ranks));
}
