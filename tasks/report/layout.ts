import { escapeHtml } from "./escape.js";

/**
 * Nothing a page may fetch: scripts and styles only inline, images only
 * `data:`, no form posted anywhere. A page works from `file://` and on any
 * static host, and leaks no reader's address to anyone. (scores:compare's
 * page, a single file.)
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; " +
  "img-src data:; form-action 'none'; base-uri 'none'";

/**
 * The report's pages: scripts only from the site's own files (the lookup
 * and its shards, loaded on demand, from `file://` too), no inline script
 * at all, styles inline, nothing fetched from anywhere else.
 */
export const REPORT_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; " +
  "img-src data:; form-action 'none'; base-uri 'none'";

const STYLE = `
:root { color-scheme: light dark; --line: #8884; --bar: #3b6fd8; --muted: #777; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 60rem; padding: 1rem;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
h1 { font-size: 1.5rem; margin: 0.5rem 0; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 0.5rem; border-bottom: 1px solid var(--line); }
nav a { margin-right: 1rem; }
.muted { color: var(--muted); }
[hidden] { display: none !important; }
.mono, code, pre { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.9em; }
.addr, .hash { font-family: ui-monospace, Menlo, Consolas, monospace; word-break: break-all; }
.hash { font-size: 0.9em; }
td .addr { word-break: normal; white-space: nowrap; }
.short { display: none; }
.num { font-variant-numeric: tabular-nums; white-space: nowrap; }
.nowrap, .file { white-space: nowrap; }
th.num, td.num { text-align: right; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 0.3rem 0.5rem; border-bottom: 1px solid var(--line); text-align: left;
  vertical-align: top; }
dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.2rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; overflow-x: auto; }
.command { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: flex-start; }
.command code { flex: 1 1 16rem; padding: 0.5rem; border: 1px solid var(--line);
  white-space: pre-wrap; overflow-wrap: normal; word-break: normal; user-select: all; }
.command button { padding: 0.4rem 1rem; font: inherit; }
tr.below-minimum td { border-bottom: none; }
tr.here td { font-weight: 600; }
tr.vesting-mark td { color: #b26b00; font-size: 0.9em; padding-top: 0; }
pre { padding: 0.75rem; border: 1px solid var(--line); overflow-x: auto; white-space: pre; }
svg.chart { width: 100%; height: auto; max-height: 18rem; }
svg.chart .bar { fill: var(--bar); }
svg.chart text { font: 12px sans-serif; fill: currentColor; }
form.lookup { display: flex; flex-wrap: wrap; gap: 0.5rem; }
form.lookup input { flex: 1 1 20rem; min-width: 0; padding: 0.4rem; font: inherit;
  font-family: ui-monospace, Menlo, Consolas, monospace; }
form.lookup button { padding: 0.4rem 1rem; font: inherit; }
.state-live { color: #b26b00; } .state-final { color: #2b7a2b; }
@media (max-width: 40rem) { body { padding: 0.5rem; font-size: 15px; }
  th, td { padding: 0.25rem; } .full { display: none; } .short { display: inline; }
  #stages thead, #stages td.total { display: none; }
  #stages tr { display: grid; grid-template-columns: auto 1fr auto; column-gap: 0.75rem;
    padding: 0.3rem 0; border-bottom: 1px solid var(--line); }
  #stages td { padding: 0; border: none; }
  #stages td.window { grid-row: 2; grid-column: 1 / -1; font-size: 0.85em; }
  #stages td.state { color: var(--muted); font-size: 0.9em; } }
`;

/**
 * A whole page: its title escaped, its body as given (already escaped where
 * it holds untrusted text), the styles inline, a viewport for phones, no
 * font but the reader's own, and `scripts` (trusted code and safely
 * embedded data, or the elements loading the site's script files) at the
 * end, under `contentSecurityPolicy`.
 */
export function page(
  title: string,
  body: string,
  scripts = "",
  contentSecurityPolicy = CONTENT_SECURITY_POLICY,
): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
${scripts}</body>
</html>
`;
}
