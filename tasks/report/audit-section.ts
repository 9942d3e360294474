import { escapeHtml } from "./escape.js";
import { formatCount, shellWord } from "./format.js";
import type { ReportManifest } from "./manifest.js";
import { fileLink } from "./stage-facts.js";
import type { StageView } from "./view.js";

/** The command that recomputes the stage and compares it with the manifest. */
function auditCommand(view: StageView): string | undefined {
  if (view.policy === undefined || view.files.manifest === undefined)
    return undefined;
  return (
    `npx hardhat scores:audit --network ${shellWord(view.network)} --policy ${shellWord(view.policy.file)} ` +
    `--stage ${view.stage} --manifest ${view.files.manifest}`
  );
}

function block(
  label: string,
  at: { number: string; hash: string } | null,
): string {
  const value =
    at === null
      ? `<span class="muted">none: no block in the window</span>`
      : `<span class="num">${escapeHtml(at.number)}</span> ` +
        `<span class="hash">${escapeHtml(at.hash)}</span>`;
  return `<dt>${label}</dt><dd>${value}</dd>\n`;
}

function blocks(manifest: ReportManifest): string {
  if (manifest.blocks === undefined)
    return `<dt>Blocks</dt><dd class="muted">not in this manifest</dd>\n`;
  return (
    block("First block", manifest.blocks.first) +
    block("Last block", manifest.blocks.last) +
    `<dt>Rule</dt><dd>${escapeHtml(manifest.blocks.rule)}</dd>\n`
  );
}

function sources(manifest: ReportManifest): string {
  if (manifest.sources === undefined) return "";
  const each = manifest.sources.map(
    (source) => `<dl class="facts source">
<dt>Source</dt><dd><code>${escapeHtml(source.table)}</code></dd>
<dt>Contract</dt><dd class="addr">${escapeHtml(source.address)}</dd>
<dt>Event</dt><dd><code>${escapeHtml(source.event)}</code></dd>
<dt>Logs</dt><dd class="num">${formatCount(source.logs)}</dd>
<dt>Digest</dt><dd class="hash">${escapeHtml(source.sha256)}</dd>
</dl>
`,
  );
  return `<h3>Sources <span class="muted">(logs up to the last block)</span></h3>\n${each.join("")}`;
}

/**
 * What a challenger checks first: the blocks the stage was computed over,
 * each source's log count and digest, the policy's sha256, and the command
 * that recomputes the stage and compares it with its manifest.
 */
export function auditSection(view: StageView): string {
  const command = auditCommand(view);
  if (view.manifest === undefined || command === undefined)
    return (
      `<h2>Check this stage</h2>\n<p class="muted">No manifest lies beside this ` +
      `stage's file: there is nothing to recompute it against.</p>\n`
    );
  const manifest = view.manifest;
  return `<h2>Check this stage</h2>
<dl class="facts" id="audit-facts">
${blocks(manifest)}<dt>Policy</dt><dd>${fileLink(view.policy?.file ?? "")}</dd>
<dt>Policy sha256</dt><dd class="hash">${escapeHtml(manifest.policy.sha256)}</dd>
<dt>Scores sha256</dt><dd class="hash">${escapeHtml(manifest.output.sha256)}</dd>
</dl>
${sources(manifest)}<p>Recompute the stage from the rollup and compare it with its manifest, in a
Hardhat project with this plugin, beside this page's files (<code>--network</code> names the
rollup in your Hardhat configuration); it exits 1 on any difference:</p>
<div class="command"><code id="audit-command">${escapeHtml(command)}</code></div>
`;
}
