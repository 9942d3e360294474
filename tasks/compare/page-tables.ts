import { changeKind } from "./change-kind.js";
import { displayAddress } from "./display.js";
import type { PairedScore } from "./paired-scores.js";
import { sharePointsChange, type Totals } from "./shares.js";
import { fallsBelowVestingMinimum } from "./vesting.js";
import { escapeHtml } from "../report/escape.js";
import { formatDelta } from "../report/format.js";
import { sharePercent } from "../report/model.js";
import { table } from "../report/tables.js";

const HEAD = ["Address", "Score", "Change", "Share", "Points"];

/** An address, its scores before → after, their change, its shares and their change. */
function cells(pair: PairedScore, totals: Totals): string[] {
  return [
    `<span class="addr">${escapeHtml(displayAddress(pair.address))}</span>`,
    `${pair.before} → ${pair.after}`,
    formatDelta(pair.after - pair.before),
    `${sharePercent(pair.before, totals.before)}% → ${sharePercent(pair.after, totals.after)}%`,
    sharePointsChange(pair, totals),
  ];
}

/** Addresses with both scores and both shares, or a line saying there are none. */
export function pairsTable(pairs: PairedScore[], totals: Totals): string {
  if (pairs.length === 0) return `<p class="muted">None.</p>\n`;
  return table(
    HEAD,
    pairs.map((pair) => cells(pair, totals)),
    [1, 2, 3, 4],
  );
}

/**
 * Every address, with what changed for it and whether it falls below
 * vesting's minimum (⌊current score × 0.5⌋): the filter hides the rows
 * whose address does not hold what is typed.
 */
export function everyTable(pairs: PairedScore[], totals: Totals): string {
  return table(
    [...HEAD, "What", "Below minimum"],
    pairs.map((pair) => [
      ...cells(pair, totals),
      changeKind(pair),
      fallsBelowVestingMinimum(pair.before, pair.after) ? "yes" : "no",
    ]),
    [1, 2, 3, 4],
  );
}
