import type { StageChanges } from "./changes.js";
import { escapeHtml } from "./escape.js";
import { formatCount } from "./format.js";
import type { RankedEntry } from "./model.js";
import { groupThousands, scoreText } from "./numbers.js";
import { SHOWN } from "./view.js";

/**
 * An address as a link that looks it up on this page: in full, or shortened
 * on a phone (the lookup then shows it in full).
 */
function addressLink(address: string): string {
  const text = escapeHtml(address);
  const short = escapeHtml(`${address.slice(0, 6)}…${address.slice(-4)}`);
  return (
    `<a class="addr" href="#${text}" title="${text}">` +
    `<span class="full">${text}</span><span class="short">${short}</span></a>`
  );
}

/** A table, scrolling sideways on a narrow screen when it must. */
export function table(
  head: string[],
  rows: string[][],
  numeric: number[],
): string {
  const cell = (tag: string, index: number, text: string): string =>
    `<${tag}${numeric.includes(index) ? ' class="num"' : ""}>${text}</${tag}>`;
  const header = head.map((text, index) => cell("th", index, text)).join("");
  const body = rows
    .map(
      (row) =>
        `<tr>${row.map((text, index) => cell("td", index, text)).join("")}</tr>`,
    )
    .join("\n");
  return (
    `<div class="scroll"><table><thead><tr>${header}</tr></thead>\n` +
    `<tbody>\n${body}\n</tbody></table></div>\n`
  );
}

/** The highest scores: rank, address, score, share. */
export function rankedTable(entries: RankedEntry[]): string {
  return table(
    ["Rank", "Address", "Score", "Share"],
    entries.map((entry) => [
      formatCount(entry.rank),
      addressLink(entry.address),
      scoreText(entry.score),
      `${entry.share}\u00a0%`,
    ]),
    [0, 2, 3],
  );
}

/** What changed from the previous stage: counts, then each list. */
export function changesSection(changes: StageChanges): string {
  const { addedCount, goneCount, movedCount } = changes;
  const summary =
    `<p>${formatCount(addedCount)} new, ${formatCount(goneCount)} gone, ` +
    `${formatCount(movedCount)} with another score.</p>\n`;
  const list = (title: string, count: number, body: string): string => {
    if (count === 0) return "";
    const shown =
      count > SHOWN
        ? `the first ${SHOWN} of ${formatCount(count)}`
        : formatCount(count);
    return `<h3>${title} <span class="muted">(${shown})</span></h3>\n${body}`;
  };
  const moves = table(
    ["Address", "Before", "Now", "Change"],
    changes.moves.map((move) => [
      addressLink(move.address),
      scoreText(move.before),
      scoreText(move.after),
      signedText(move.delta),
    ]),
    [1, 2, 3],
  );
  return (
    summary +
    list("New", addedCount, rankedTable(changes.added)) +
    list("Gone", goneCount, goneTable(changes.gone)) +
    list("Biggest moves", movedCount, moves)
  );
}

/** A signed change, grouped: "+1,200", "-3". */
function signedText(delta: bigint): string {
  const digits = groupThousands((delta < 0n ? -delta : delta).toString());
  return delta > 0n ? `+${digits}` : delta < 0n ? `-${digits}` : digits;
}

function goneTable(entries: { address: string; score: bigint }[]): string {
  return table(
    ["Address", "Score before"],
    entries.map((entry) => [
      addressLink(entry.address),
      scoreText(entry.score),
    ]),
    [1],
  );
}
