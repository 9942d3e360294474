import { page, REPORT_CONTENT_SECURITY_POLICY } from "./layout.js";
import { lookupForm, pageScripts } from "./lookup-script.js";
import { stagesTable } from "./stages-table.js";
import type { StageView } from "./view.js";

/**
 * The report's first page: a lookup of an address across every stage, then
 * every stage, the latest first.
 */
export function indexPage(views: StageView[]): string {
  const body = `<h1>VIP scores by stage</h1>
<p class="muted">Each stage's scores as its files hold them: look up an address to see its
score in every stage, or open a stage for its distribution, top addresses, changes, policy and
how to check it.</p>
<h2>Look up an address</h2>
${lookupForm()}<h2>Stages</h2>
${stagesTable(views)}`;
  return page(
    "VIP scores by stage",
    body,
    pageScripts(),
    REPORT_CONTENT_SECURITY_POLICY,
  );
}
