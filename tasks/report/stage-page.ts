import { auditSection } from "./audit-section.js";
import { histogramSvg } from "./chart.js";
import { escapeHtml } from "./escape.js";
import { shellWord, stateLabel } from "./format.js";
import { page, REPORT_CONTENT_SECURITY_POLICY } from "./layout.js";
import {
  type ExplainCommand,
  lookupForm,
  pageScripts,
} from "./lookup-script.js";
import { stageFacts, fileLink } from "./stage-facts.js";
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

function policySection(view: StageView): string {
  if (view.manifest === undefined || view.policy === undefined)
    return (
      `<p class="muted">No manifest lies beside this stage's file, ` +
      `so its policy is not known.</p>\n`
    );
  const { name, sha256, fromStage } = view.manifest.policy;
  return `<dl class="facts">
<dt>Name</dt><dd>${escapeHtml(name)}</dd>
<dt>sha256</dt><dd class="hash">${escapeHtml(sha256)}</dd>
<dt>From stage</dt><dd>${escapeHtml(fromStage)}</dd>
<dt>File</dt><dd>${fileLink(view.policy.file)}</dd>
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

/** The explain command of this stage, less the address; none without a policy. */
function explainCommand(view: StageView): ExplainCommand | undefined {
  if (view.policy === undefined) return undefined;
  return {
    stage: view.stage,
    network: view.network,
    prefix:
      `npx hardhat scores:explain --network ${shellWord(view.network)} --policy ${shellWord(view.policy.file)} ` +
      `--stage ${view.stage} --address `,
  };
}

/**
 * A stage's page: its facts, the lookup (`#0x…` opens with that address
 * looked up), the distribution, the top addresses, the changes from the
 * previous stage, what a challenger checks, and the policy's full SQL. It
 * holds no score beyond those it lists: the lookup loads its data from the
 * site's files.
 */
export function stagePage(view: StageView): string {
  const topTable =
    view.top.length === 0
      ? `<p class="muted">No scores.</p>\n`
      : rankedTable(view.top);
  const body = `${navigation(view)}
<h1>Stage ${view.stage} ${stateBadge(view)}</h1>
${stageFacts(view)}<h2>Look up an address</h2>
${lookupForm({ stage: view.stage, explain: explainCommand(view) })}<h2>Distribution of scores</h2>
${histogramSvg(view.histogram)}
<h2>Top ${SHOWN}</h2>
${topTable}${changes(view)}
${auditSection(view)}<h2>Policy</h2>
${policySection(view)}`;
  return page(
    `Stage ${view.stage} scores`,
    body,
    pageScripts(),
    REPORT_CONTENT_SECURITY_POLICY,
  );
}
