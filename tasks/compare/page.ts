import { CHANGE_KINDS } from "./change-kind.js";
import { filterForm, filterScript } from "./page-script.js";
import { everyTable, pairsTable } from "./page-tables.js";
import type { CompareView, PolicyView } from "./page-view.js";
import type { PairedScore } from "./paired-scores.js";
import { totalMove } from "./terminal.js";
import { escapeHtml } from "../report/escape.js";
import { formatCount, formatWindow } from "../report/format.js";
import { page } from "../report/layout.js";

const STATE_WORDS = {
  final: "final: the window has closed on both clocks",
  live: "live: the window is still open, so the scores may still change",
  trial: "a trial window of the operator's choosing",
};

function facts(view: CompareView): string {
  const link = (file: string): string =>
    `<a href="${escapeHtml(file)}">${escapeHtml(file)}</a>`;
  return `<dl class="facts">
<dt>Window</dt><dd>${escapeHtml(`${view.label}: ${formatWindow(view.window)}`)}</dd>
<dt>Rollup blocks</dt><dd>${escapeHtml(`${view.blocks.first}–${view.blocks.last}`)}, the same for both policies</dd>
<dt>State</dt><dd>${escapeHtml(STATE_WORDS[view.state])}</dd>
<dt>Current</dt><dd>${escapeHtml(view.current.name)}</dd>
<dt>Proposed</dt><dd>${escapeHtml(view.proposed.name)}</dd>
<dt>Files</dt><dd>${[view.csv, view.current.copy, view.proposed.copy].map(link).join(" · ")}</dd>
</dl>
`;
}

const KIND_WORDS = {
  gained: "Gained (scored only by the proposed policy)",
  lost: "Lost (scored only by the current policy)",
  changed: "Changed",
  unchanged: "Unchanged",
  unscored: "Scored 0 by both",
};

function summary(view: CompareView): string {
  const c = view.comparison;
  const rows = CHANGE_KINDS.map(
    (kind) =>
      `<dt>${KIND_WORDS[kind]}</dt><dd class="mono" id="count-${kind}">${formatCount(c.counts[kind])}</dd>`,
  ).join("\n");
  return `<dl class="facts">
<dt>Addresses</dt><dd class="mono" id="count-addresses">${formatCount(c.addresses)}</dd>
${rows}
<dt>Total</dt><dd class="mono" id="totals">${escapeHtml(totalMove(c.totals))}</dd>
</dl>
<p id="vesting"><strong><span id="count-vesting">${formatCount(c.belowVestingMinimum)}</span>
of ${formatCount(c.scoredBefore)}</strong> users scored under the current policy would score
below vesting's minimum under the proposed one: ⌊current score × 0.5⌋, half their current score
truncated to a whole score. Vesting holds a user to that minimum of the score of the stage a reward
was earned in (minimum score ratio 0.5), and a user who reaches it vests in full: it compares
scores, not shares, so the scale of the scores must stay stable across a change.</p>
<p id="shares-halved"><span id="count-shares-halved">${formatCount(c.shareBelowHalf)}</span>
of ${formatCount(c.scoredBefore)} users' shares of the total would fall below half their current share.</p>
`;
}

const LEGEND =
  `<p class="muted">Score: current → proposed, exactly as the CSV holds them. ` +
  `Share: of each policy's total, in percent to four decimals (rounded half up); ` +
  `Points: the share's change, in percentage points.</p>\n`;

function largestChanges(view: CompareView): string {
  const { largest, totals } = view.comparison;
  const parts: [string, string, PairedScore[]][] = [
    ["score-gains", "Gains by score", largest.scoreGains],
    ["score-losses", "Losses by score", largest.scoreLosses],
    ["share-gains", "Gains by share of the total", largest.shareGains],
    ["share-losses", "Losses by share of the total", largest.shareLosses],
  ];
  return (
    LEGEND +
    parts
      .map(
        ([id, title, pairs]) =>
          `<h3 id="${id}">${title}</h3>\n${pairsTable(pairs, totals)}`,
      )
      .join("")
  );
}

function everyAddress(view: CompareView): string {
  const count = view.comparison.addresses;
  const csv = `<a href="${escapeHtml(view.csv)}">${escapeHtml(view.csv)}</a>`;
  if (view.every === undefined)
    return `<p class="muted">${formatCount(count)} addresses: too many to list here; ${csv} has every one.</p>\n`;
  return (
    filterForm(count) +
    `<div id="every-address">${everyTable(view.every, view.comparison.totals)}</div>` +
    `<p class="muted">What: gained, lost, changed, unchanged, or unscored (0 under both). ` +
    `Below minimum: the proposed score is below vesting's minimum, ⌊current score × 0.5⌋. ` +
    `The same in ${csv}, with each share as an exact fraction.</p>\n`
  );
}

function policyColumn(role: string, policy: PolicyView): string {
  const copy = escapeHtml(policy.copy);
  return `<div id="policy-${role}">
<h3>${role === "current" ? "Current" : "Proposed"}: ${escapeHtml(policy.name)}</h3>
<dl class="facts">
<dt>From stage</dt><dd>${escapeHtml(policy.fromStage.toString())}</dd>
<dt>sha256</dt><dd class="mono">${escapeHtml(policy.sha256)}</dd>
<dt>File</dt><dd><a href="${copy}">${copy}</a></dd>
</dl>
<pre><code>${escapeHtml(policy.sql)}</code></pre>
</div>`;
}

/** The two policies' SQL side by side (one above the other on a phone). */
function policies(view: CompareView): string {
  return (
    `<div style="display: grid; grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr)); gap: 1rem;">\n` +
    `${policyColumn("current", view.current)}\n${policyColumn("proposed", view.proposed)}\n</div>\n`
  );
}

/**
 * The comparison's page, in the report's style and under its
 * Content-Security-Policy: the facts, the summary with the vesting count,
 * the largest changes, the top of the proposed policy, every address (or,
 * when they are many, the CSV's name), and both policies' SQL.
 */
export function comparePage(view: CompareView): string {
  const { comparison } = view;
  const body = `<h1>Policy change preview</h1>
<p>${escapeHtml(view.label)}: what the proposed policy would change, computed over the same rollup blocks as the current one.</p>
${facts(view)}<h2>Summary</h2>
${summary(view)}<h2>Largest changes</h2>
${largestChanges(view)}<h2>Top ${comparison.top.length} under the proposed policy</h2>
${pairsTable(comparison.top, comparison.totals)}<h2>Every address</h2>
${everyAddress(view)}<h2>Policies</h2>
${policies(view)}`;
  return page(
    `Policy change preview: ${view.label}`,
    body,
    view.every === undefined ? "" : filterScript(),
  );
}
