import { escapeHtml } from "./escape.js";
import { formatCount, formatWindow, stateLabel } from "./format.js";
import { page } from "./layout.js";
import { table } from "./tables.js";
import { stagePageName, type StageView } from "./view.js";

/** The report's first page: every stage, the latest first. */
export function indexPage(views: StageView[]): string {
  const rows = [...views]
    .reverse()
    .map((view) => [
      `<a href="${stagePageName(view.stage)}">Stage ${view.stage}</a>`,
      view.manifest === undefined
        ? `<span class="muted">unknown</span>`
        : escapeHtml(formatWindow(view.manifest.window)),
      escapeHtml(stateLabel(view.state)),
      formatCount(view.entries.length),
      `<span class="mono">${view.total}</span>`,
    ]);
  const body = `<h1>VIP scores by stage</h1>
<p class="muted">Each stage's scores as its files hold them: open a stage to look up an
address, see the distribution, the top addresses, what changed and the policy's SQL.</p>
${table(["Stage", "Window (UTC)", "State", "Addresses", "Total"], rows, [3, 4])}`;
  return page("VIP scores by stage", body);
}
