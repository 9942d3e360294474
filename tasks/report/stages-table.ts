import { escapeHtml } from "./escape.js";
import { formatCount, formatUtc, stateLabel } from "./format.js";
import { scoreText } from "./numbers.js";
import { windowHtml } from "./stage-facts.js";
import { stagePageName, type StageView } from "./view.js";

/**
 * A window as a phone's index shows it: the dates without "UTC" each end
 * (the heading says it), each end whole on its line.
 */
function shortWindow(window: { start: string; end: string }): string {
  const end = (seconds: string): string =>
    `<span class="nowrap">${escapeHtml(formatUtc(seconds).replace(/ UTC$/, ""))}</span>`;
  return `${end(window.start)} – ${end(window.end)}`;
}

function windowCell(view: StageView): string {
  if (view.manifest === undefined) return `<span class="muted">unknown</span>`;
  const { window } = view.manifest;
  return (
    `<span class="full">${windowHtml(window)}</span>` +
    `<span class="short">${shortWindow(window)} UTC</span>`
  );
}

function row(view: StageView): string {
  return `<tr>
<td class="stage"><a class="nowrap" href="${stagePageName(view.stage)}">Stage ${view.stage}</a></td>
<td class="window">${windowCell(view)}</td>
<td class="state"><span class="nowrap">${escapeHtml(stateLabel(view.state))}</span></td>
<td class="num count">${formatCount(view.count)}<span class="short"> addresses</span></td>
<td class="num total">${scoreText(view.total)}</td>
</tr>`;
}

/**
 * The index's table of stages, the latest first. On a phone (the layout's
 * narrow rules) each row is two lines: the stage, its state and its count,
 * then its window; the total is on the stage's page.
 */
export function stagesTable(views: StageView[]): string {
  const rows = [...views].reverse().map(row);
  return `<div class="scroll"><table id="stages"><thead><tr><th>Stage</th><th>Window (UTC)</th>
<th>State</th><th class="num">Addresses</th><th class="num">Total</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody></table></div>
`;
}
