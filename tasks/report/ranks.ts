import type { ScoreTable } from "../scores/table.js";

/**
 * A stage's scores in ascending order, in one typed array (8 bytes a row,
 * no object per row): a score's rank is 1 + the number of higher scores,
 * found by a binary search. Ties share a rank.
 */
export class StageRanks {
  readonly #ascending: BigUint64Array;
  readonly total: bigint;

  constructor(table: ScoreTable) {
    const scores = new BigUint64Array(table.length);
    let total = 0n;
    for (let i = 0; i < table.length; i++) {
      const score = table.score(i);
      scores[i] = score;
      total += score;
    }
    this.#ascending = scores.sort();
    this.total = total;
  }

  get count(): number {
    return this.#ascending.length;
  }

  /** 1 + the number of scores above `score`. */
  rankOf(score: bigint): number {
    const scores = this.#ascending;
    let low = 0;
    let high = scores.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((scores[middle] ?? 0n) <= score) low = middle + 1;
      else high = middle;
    }
    return scores.length - low + 1;
  }

  /** Every score, lowest first (the chart counts them). */
  *scores(): Generator<bigint> {
    for (const score of this.#ascending) yield score;
  }
}
