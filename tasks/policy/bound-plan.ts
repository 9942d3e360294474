import { admittedAs, refusalHint } from "./allow-list.js";
import type { Policy } from "./parse.js";
import {
  constructAt,
  ownLocation,
  type PolicyConstruct,
  statementStart,
  textOf,
} from "./place.js";

/** A table the bound plan scans: `catalog.schema.table`. */
export interface TableScan {
  catalog: string;
  schema: string;
  table: string;
}

/**
 * What the plan DuckDB bound for an admitted policy may still not do; the
 * second line of defence under the parse-tree admission, on what the engine
 * itself resolved:
 * - call a function the engine marks as changing from run to run or from
 *   query to query (`duckdb_functions().stability`), such as `current_date`,
 *   which the parser reads as a column;
 * - scan anything but the policy's own tables (`reads`) and the admitted
 *   table functions: a name the parse tree let through as a CTE, resolved
 *   by the binder to a catalog view, is caught here.
 */
export function boundPlanRefusals(
  policy: Policy,
  plan: unknown,
  rules: { unstable: Set<string>; reads: (scan: TableScan) => boolean },
): PolicyConstruct[] {
  const refused: PolicyConstruct[] = [];
  const refuse = (at: number | undefined, hint: string) =>
    refused.push(
      constructAt(policy.sql, at ?? statementStart(policy.sql), hint),
    );
  const visit = (value: unknown, at?: number): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, at);
      return;
    }
    if (value === null || typeof value !== "object") return;
    const node = value as Record<string, unknown>;
    const here = ownLocation(node) ?? at;
    const name = (
      textOf(node.name) || textOf(node.function_name)
    ).toLowerCase();
    if (
      typeof node.expression_class === "string" &&
      rules.unstable.has(name) &&
      // The binder's own guard on a scalar subquery (more than one row is an
      // error); a policy cannot call error() itself (see admit).
      name !== "error"
    )
      refuse(here, `${name}: ${refusalHint(name)}`);
    if (node.type === "LOGICAL_GET" && !readsAdmitted(node, name, rules.reads))
      refuse(
        here,
        `the policy reads ${scanName(node, name)}: a policy reads its @source tables and stage, nothing else`,
      );
    for (const child of Object.values(node)) visit(child, here);
  };
  visit(plan);
  return refused;
}

function readsAdmitted(
  node: Record<string, unknown>,
  name: string,
  reads: (scan: TableScan) => boolean,
): boolean {
  if (name !== "seq_scan")
    return admittedAs(name).some((group) => group.kind === "table");
  const data = (node.function_data ?? {}) as Record<string, unknown>;
  return reads({
    catalog: textOf(data.catalog),
    schema: textOf(data.schema),
    table: textOf(data.table),
  });
}

function scanName(node: Record<string, unknown>, name: string): string {
  if (name !== "seq_scan") return `${name}(…)`;
  const data = (node.function_data ?? {}) as Record<string, unknown>;
  return [data.catalog, data.schema, data.table].map(String).join(".");
}
