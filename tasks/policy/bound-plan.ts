import { admittedAs, refusalHint, typeHint } from "./admitted-sql.js";
import type { EnginePolicy } from "./engine-policy.js";
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
 *   by the binder to a catalog view, is caught here;
 * - compute a value of a type that compares equal to another it is not
 *   (an INTERVAL from `ts - ts`, a MAP) or depends on the machine's zone,
 *   where the value comes in.
 */
export function boundPlanRefusals(
  policy: EnginePolicy,
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
    const refusedType = typeComingIn(node);
    if (refusedType !== undefined) refuse(here, typeHint(refusedType));
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

/** Types the admission refuses, and a bound expression may still compute. */
const REFUSED_TYPES = new Set([
  "INTERVAL",
  "MAP",
  "UNION",
  "TIMESTAMP WITH TIME ZONE",
  "TIME WITH TIME ZONE",
]);

/** The refused type an expression brings in (its children do not hold it), if any. */
function typeComingIn(node: Record<string, unknown>): string | undefined {
  if (typeof node.expression_class !== "string") return undefined;
  const own = refusedTypeIn(node.return_type);
  if (own === undefined) return undefined;
  const children: unknown[] = Array.isArray(node.children)
    ? [...(node.children as unknown[]), node.child]
    : [node.child];
  return children.some(
    (child) =>
      refusedTypeIn(
        (child as { return_type?: unknown } | null)?.return_type,
      ) === own,
  )
    ? undefined
    : own;
}

function refusedTypeIn(type: unknown): string | undefined {
  if (Array.isArray(type)) {
    for (const item of type) {
      const found = refusedTypeIn(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (type === null || typeof type !== "object") return undefined;
  const node = type as Record<string, unknown>;
  if (typeof node.id === "string" && REFUSED_TYPES.has(node.id)) return node.id;
  return refusedTypeIn(Object.values(node));
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
