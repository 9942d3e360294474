import { escapeHtml } from "./escape.js";
import { formatCount, formatUtc, stateLabel } from "./format.js";
import { scoreText } from "./numbers.js";
import type { StageView } from "./view.js";

/**
 * A window as HTML: each end kept whole on one line (a phone wraps between
 * them, never inside a date).
 */
export function windowHtml(window: { start: string; end: string }): string {
  const end = (seconds: string): string =>
    `<span class="nowrap">${escapeHtml(formatUtc(seconds))}</span>`;
  return `${end(window.start)} – ${end(window.end)}`;
}

/** A file of the site as a link, its name never broken across lines. */
export function fileLink(file: string): string {
  const name = escapeHtml(file);
  return `<a class="file" href="${name}">${name}</a>`;
}

/** A stage's window, state, count, total and files. */
export function stageFacts(view: StageView): string {
  const files = [fileLink(view.files.csv)];
  if (view.files.manifest !== undefined)
    files.push(fileLink(view.files.manifest));
  const window =
    view.manifest === undefined
      ? `<span class="muted">unknown: no manifest beside the file</span>`
      : windowHtml(view.manifest.window);
  return `<dl class="facts">
<dt>Window</dt><dd>${window}</dd>
<dt>State</dt><dd>${escapeHtml(stateLabel(view.state))}</dd>
<dt>Addresses</dt><dd class="num">${formatCount(view.count)}</dd>
<dt>Total</dt><dd class="num" id="stage-total">${scoreText(view.total)}</dd>
<dt>Files</dt><dd>${files.join(" · ")}</dd>
</dl>
`;
}
