import { LOOKUP_JS } from "./browser/lookup.js";
import { NUMBERS_JS } from "./browser/numbers.js";
import { SHARDS_JS } from "./browser/shards.js";
import { VESTING_JS } from "./browser/vesting.js";
import { escapeHtml } from "./escape.js";
import { SITE_SCRIPT } from "./site-script.js";

/** The lookup's script, a file beside the pages (the pages run no inline script). */
export const LOOKUP_SCRIPT = "lookup.js";

/** `lookup.js`: the numbers, vesting's rule, the shards, then the lookup, in one scope. */
export function lookupScript(): string {
  return `(function () {\n"use strict";${NUMBERS_JS}${VESTING_JS}${SHARDS_JS}${LOOKUP_JS}})();\n`;
}

/** The script elements at a page's end: the site's stages, then the lookup. */
export function pageScripts(): string {
  return (
    `<script src="${SITE_SCRIPT}"></script>\n` +
    `<script src="${LOOKUP_SCRIPT}"></script>\n`
  );
}

/** How a stage's page explains an address: the command, less the address. */
export interface ExplainCommand {
  stage: bigint;
  /** `npx hardhat scores:explain … --address `, the address appended by the lookup. */
  prefix: string;
  network: string;
}

/** The score, rank and share in this page's stage, filled by the script. */
function stageResult(): string {
  return `<dl class="facts">
<dt>Address</dt><dd class="addr" id="lookup-shown-address">0x</dd>
<dt>Score</dt><dd class="num" id="lookup-score">0</dd>
<dt>Rank</dt><dd id="lookup-rank">0</dd>
<dt>Share</dt><dd class="num" id="lookup-share">0</dd>
</dl>
`;
}

/** Every stage's score of the address: a row each, filled by the script. */
function historyTable(): string {
  return `<h3>In every stage of this report</h3>
<div class="scroll"><table id="lookup-history"><thead><tr><th>Stage</th>
<th class="num">Score</th><th class="num">Share</th><th class="num">Rank</th></tr></thead>
<tbody id="lookup-history-rows"></tbody></table></div>
<p class="muted">A stage's reward vests in full while each later stage scores at least
vesting's minimum, half the stage's score rounded down: a later stage whose score is below an
earlier stage's minimum is marked, and that earlier stage's reward then vests only in part.</p>
`;
}

/** The command that shows why the address has its score, ready to copy. */
function explainBlock(explain: ExplainCommand): string {
  return `<h3>Why this score</h3>
<p>Run this in a Hardhat project with this plugin, beside this page's files (the policy as
published here); <code>--network ${escapeHtml(explain.network)}</code> names the rollup in your
Hardhat configuration. It lists every event of the policy's sources that names the address.</p>
<div class="command"><code id="explain-command">${escapeHtml(explain.prefix)}<span id="explain-address">0x</span></code>
<button type="button" id="copy-explain">Copy</button></div>
`;
}

/**
 * The lookup's form and its result, filled by the script: on a stage's
 * page, the address's score there, every stage's and, where the stage's
 * policy is published, the command that explains it; on the index, every
 * stage's. The result stays hidden until a lookup, so no empty label shows.
 */
export function lookupForm(onStagePage?: {
  stage: bigint;
  explain: ExplainCommand | undefined;
}): string {
  const stage =
    onStagePage === undefined ? "" : ` data-stage="${onStagePage.stage}"`;
  const explain = onStagePage?.explain;
  return `<form class="lookup" id="lookup-form" autocomplete="off"${stage}>
<label for="lookup-address" class="muted">Address</label>
<input id="lookup-address" name="address" placeholder="0x…" spellcheck="false">
<button type="submit">Look up</button>
</form>
<div id="lookup-result" hidden>
<p id="lookup-status"></p>
<div id="lookup-details" hidden>
${onStagePage === undefined ? "" : stageResult()}${historyTable()}${explain === undefined ? "" : explainBlock(explain)}</div>
</div>
<noscript><p class="muted">The lookup needs JavaScript;
the CSV beside this page has every score.</p></noscript>
`;
}
