import { histogramSvg } from "./chart.js";
import { escapeHtml } from "./escape.js";
import { formatCount, formatWindow, stateLabel } from "./format.js";
import { page } from "./layout.js";
import { lookupData, lookupForm, lookupScript } from "./lookup-script.js";
import { changesSection, rankedTable } from "./tables.js";
import { SHOWN, stagePageName, type StageView } from "./view.js";

function navigation(view: StageView): string {
  const links = [`<a href="index.html">All stages</a>`];
  if (view.previous !== undefined)
    links.push(
      `<a href="${stagePageName(view.previous)}">← Stage ${view.previous}</a>`,
    );
  if (view.next !== undefined)
    links.push(
      `<a href="${stagePageName(view.next)}">Stage ${view.next} →</a>`,
    );
  return `<nav>${links.join("")}</nav>`;
}

function facts(view: StageView): string {
  const files = [
    `<a href="${escapeHtml(view.files.csv)}">${escapeHtml(view.files.csv)}</a>`,
  ];
  if (view.files.manifest !== undefined)
    files.push(
      `<a href="${escapeHtml(view.files.manifest)}">${escapeHtml(view.files.manifest)}</a>`,
    );
  const window =
    view.manifest === undefined
      ? `<span class="muted">unknown: no manifest beside the file</span>`
      : escapeHtml(formatWindow(view.manifest.window));
  return `<dl class="facts">
<dt>Window</dt><dd>${window}</dd>
<dt>State</dt><dd>${escapeHtml(stateLabel(view.state))}</dd>
<dt>Addresses</dt><dd>${formatCount(view.entries.length)}</dd>
<dt>Total</dt><dd class="mono" id="stage-total">${view.total}</dd>
<dt>Files</dt><dd>${files.join(" · ")}</dd>
</dl>
`;
}

function policySection(view: StageView): string {
  if (view.manifest === undefined || view.policy === undefined)
    return (
      `<p class="muted">No manifest lies beside this stage's file, ` +
      `so its policy is not known.</p>\n`
    );
  const { name, sha256, fromStage } = view.manifest.policy;
  const file = escapeHtml(view.policy.file);
  return `<dl class="facts">
<dt>Name</dt><dd>${escapeHtml(name)}</dd>
<dt>sha256</dt><dd class="mono">${escapeHtml(sha256)}</dd>
<dt>From stage</dt><dd>${escapeHtml(fromStage)}</dd>
<dt>File</dt><dd><a href="${file}">${file}</a></dd>
</dl>
<pre><code>${escapeHtml(view.policy.sql)}</code></pre>
`;
}

function stateBadge(view: StageView): string {
  const kind = view.state.final ? "final" : "live";
  return `<span class="state-${kind}">${escapeHtml(stateLabel(view.state))}</span>`;
}

function changes(view: StageView): string {
  if (view.changes === undefined)
    return `<h2>Changes</h2>\n<p class="muted">No earlier stage in this report.</p>\n`;
  return `<h2>Changes from stage ${view.changes.previous}</h2>\n${changesSection(view.changes)}`;
}

/**
 * A stage's page: its facts, the lookup (`#0x…` opens with that address
 * looked up), the distribution, the top addresses, the changes from the
 * previous stage, and the policy's full SQL.
 */
export function stagePage(view: StageView): string {
  const top = view.entries.slice(0, SHOWN);
  const topTable =
    top.length === 0 ? `<p class="muted">No scores.</p>\n` : rankedTable(top);
  const body = `${navigation(view)}
<h1>Stage ${view.stage} ${stateBadge(view)}</h1>
${facts(view)}<h2>Look up an address</h2>
${lookupForm()}<h2>Distribution of scores</h2>
${histogramSvg(view.histogram)}
<h2>Top ${SHOWN}</h2>
${topTable}${changes(view)}
<h2>Policy</h2>
${policySection(view)}`;
  return page(
    `Stage ${view.stage} scores`,
    body,
    lookupData(view.entries, view.total) + lookupScript(),
  );
}
