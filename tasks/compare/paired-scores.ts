import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import type { ScoreRow } from "../scoring/score-rows.js";

/** One address's score under the current policy and under the proposed one. */
export interface PairedScore {
  /** Lowercase 0x address. */
  address: string;
  /** Under the current policy: 0 where it does not score the address. */
  before: bigint;
  /** Under the proposed policy: 0 where it does not score the address. */
  after: bigint;
}

/** Which side of the comparison a list of rows is, as a refusal names it. */
type Side = "current" | "proposed";

/**
 * Every address of either answer with both its scores, in address order: a
 * merge of two lists already in address order, so it holds nothing per
 * address (no map of a million entries). An address one policy does not
 * score is 0 on that side. A list out of order, or naming an address twice,
 * is refused: the merge would pair the wrong scores.
 */
export function* pairScores(
  current: readonly ScoreRow[],
  proposed: readonly ScoreRow[],
): Generator<PairedScore> {
  let i = 0;
  let j = 0;
  while (i < current.length || j < proposed.length) {
    const left = current[i];
    const right = proposed[j];
    if (
      right === undefined ||
      (left !== undefined && left.address < right.address)
    ) {
      const row = left as ScoreRow;
      checkOrder(current, i, "current");
      i++;
      yield { address: row.address, before: row.score, after: 0n };
    } else if (left === undefined || right.address < left.address) {
      checkOrder(proposed, j, "proposed");
      j++;
      yield { address: right.address, before: 0n, after: right.score };
    } else {
      checkOrder(current, i, "current");
      checkOrder(proposed, j, "proposed");
      i++;
      j++;
      yield { address: left.address, before: left.score, after: right.score };
    }
  }
}

/** Refuses row `index` unless it comes strictly after the row before it. */
function checkOrder(
  rows: readonly ScoreRow[],
  index: number,
  side: Side,
): void {
  const previous = rows[index - 1];
  const row = rows[index];
  if (
    previous !== undefined &&
    row !== undefined &&
    previous.address >= row.address
  )
    throw new VipError(ERRORS.REPORT.COMPARE.COMPARE_ROWS_UNORDERED, {
      side,
      address: row.address,
    });
}
