import { changeKind } from "./change-kind.js";
import { pairScores, type PairedScore } from "./paired-scores.js";
import { shareFraction, type Totals } from "./shares.js";
import { fallsBelowVestingMinimum } from "./vesting.js";
import { sharePercent } from "../report/model.js";
import type { ScoreRow } from "../scoring/score-rows.js";

export const COMPARE_CSV_HEADER =
  "address,score_before,score_after,score_change," +
  "share_before,share_after,share_before_percent,share_after_percent," +
  "change,below_vesting_minimum";

/**
 * One address's line: its scores and their change (`after − before`); each
 * share as an exact fraction of its total (`score/total`, `0` for 0), then
 * as a percent with four decimals rounded half up, as the report shows it;
 * what changed (`gained`, `lost`, `changed`, `unchanged`, `unscored`); and
 * whether the proposed score falls below vesting's minimum, ⌊current
 * score × 0.5⌋ (`yes`/`no`; `no` at the minimum, which vests in full).
 */
function compareCsvLine(pair: PairedScore, totals: Totals): string {
  const { address, before, after } = pair;
  return [
    address,
    before,
    after,
    after - before,
    shareFraction(before, totals.before),
    shareFraction(after, totals.after),
    sharePercent(before, totals.before),
    sharePercent(after, totals.after),
    changeKind(pair),
    fallsBelowVestingMinimum(before, after) ? "yes" : "no",
  ].join(",");
}

/**
 * The CSV of every address either policy names, in address order, as chunks
 * of up to `linesPerChunk` lines (the header first): written as it is made,
 * so a million addresses never make one string.
 */
export function* compareCsvChunks(
  current: readonly ScoreRow[],
  proposed: readonly ScoreRow[],
  totals: Totals,
  linesPerChunk = 10_000,
): Generator<string> {
  let lines = [COMPARE_CSV_HEADER];
  for (const pair of pairScores(current, proposed)) {
    if (lines.length >= linesPerChunk) {
      yield lines.join("\n") + "\n";
      lines = [];
    }
    lines.push(compareCsvLine(pair, totals));
  }
  if (lines.length > 0) yield lines.join("\n") + "\n";
}
