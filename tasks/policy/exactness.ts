import { isFloatingFunction, refusalHint } from "./admitted-sql.js";
import type { EnginePolicy } from "./engine-policy.js";
import {
  byteOffset,
  constructAt,
  ownLocation,
  type PolicyConstruct,
  statementStart,
} from "./place.js";

const FLOATING = new Set(["DOUBLE", "FLOAT"]);

interface PlanNode {
  expression_class?: string;
  function_name?: string;
  name?: string;
  query_location?: number;
  return_type?: unknown;
  arguments?: unknown;
  child?: unknown;
  children?: unknown;
  [key: string]: unknown;
}

/**
 * Every place where the plan DuckDB bound for the policy
 * (`json_serialize_plan`) brings in floating point: a function or aggregate
 * whose result is floating point though its inputs are exact (`/`, `avg`,
 * `sum` of a UHUGEINT, `sqrt`), or an explicit cast to a float. What is
 * computed from such a value afterwards is not listed again: the fix is where
 * the float comes in. A policy with any of them is refused before it runs: a
 * score must not pass through a double anywhere between a log and the file.
 */
export function inexactExpressions(
  policy: EnginePolicy,
  plan: unknown,
): PolicyConstruct[] {
  const found = new Map<number, PolicyConstruct>();
  const visit = (node: unknown, parent: PlanNode | undefined): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, parent);
      return;
    }
    if (node === null || typeof node !== "object") return;
    const n = node as PlanNode;
    const isExpression = n.expression_class !== undefined;
    const hint = !isExpression
      ? undefined
      : bringsInFloat(n, parent)
        ? hintFor(n)
        : takesFloat(n)
          ? `${functionName(n)} takes a floating-point argument: ${refusalHint(functionName(n))}`
          : undefined;
    if (hint !== undefined) {
      const offset = locate(policy.sql, n);
      if (!found.has(offset))
        found.set(offset, constructAt(policy.sql, offset, hint, true));
    }
    for (const value of Object.values(n))
      visit(value, isExpression ? n : parent);
  };
  visit(plan, undefined);
  if (found.size === 0 && holdsFloat(plan))
    // A floating-point type the walk could not pin to an expression (a
    // column of a nested type, say): refused all the same.
    found.set(
      0,
      constructAt(
        policy.sql,
        statementStart(policy.sql),
        "the bound plan holds a floating-point type (DOUBLE or FLOAT, alone or inside a list, struct, " +
          "map or union): keep every value an integer or a DECIMAL",
        true,
      ),
    );
  return [...found.values()].sort(
    (a, b) => a.line - b.line || a.column - b.column,
  );
}

/** A type, or any value of the plan, that holds DOUBLE or FLOAT at any depth. */
function holdsFloat(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsFloat);
  if (value === null || typeof value !== "object") return false;
  const node = value as Record<string, unknown>;
  if (typeof node.id === "string" && FLOATING.has(node.id)) return true;
  return Object.values(node).some(holdsFloat);
}

function isFloating(node: PlanNode): boolean {
  return holdsFloat(node.return_type);
}

/**
 * A function whose signature takes a floating-point argument that is bound
 * into it rather than passed as a child (quantile_disc's fraction, say).
 */
function takesFloat(node: PlanNode): boolean {
  return !isFloating(node) && holdsFloat(node.arguments);
}

function functionName(node: PlanNode): string {
  return (node.function_name ?? node.name ?? "").toLowerCase();
}

function expressionChildren(node: PlanNode): PlanNode[] {
  const children = Array.isArray(node.children)
    ? (node.children as PlanNode[])
    : [];
  return node.child !== undefined && node.child !== null
    ? [...children, node.child as PlanNode]
    : children;
}

/**
 * A child carries floating point in when it is floating and is not merely the
 * coercion DuckDB inserted to feed an exact value to a floating function
 * (`sum(UHUGEINT)` casts its argument to DOUBLE; `7 / 2` casts both sides).
 */
function carriesFloatIn(child: PlanNode): boolean {
  if (!isFloating(child)) return false;
  if (child.expression_class !== "BOUND_CAST") return true;
  return expressionChildren(child).some(isFloating);
}

function bringsInFloat(node: PlanNode, parent: PlanNode | undefined): boolean {
  if (!isFloating(node)) return false;
  if (expressionChildren(node).some(carriesFloatIn)) return false;
  // A coercion feeding a floating function is reported as that function.
  if (
    node.expression_class === "BOUND_CAST" &&
    parent !== undefined &&
    parent.expression_class !== "BOUND_CAST" &&
    isFloating(parent)
  )
    return false;
  return node.expression_class !== "BOUND_REF";
}

/**
 * Where the expression starts in the policy's text. An aggregate carries no
 * location of its own in DuckDB's plan: it is found as its name followed by
 * `(` before its first argument (or anywhere, for one without arguments
 * that have a place).
 */
function locate(sql: string, node: PlanNode): number {
  const own = ownLocation(node);
  if (own !== undefined) return own;
  const name = node.function_name ?? node.name ?? "";
  const argument = firstLocation(expressionChildren(node));
  if (/^[a-z_][a-z0-9_]*$/i.test(name)) {
    const call = new RegExp(`\\b${name}\\s*\\(`, "gi");
    let best: number | undefined;
    for (const match of sql.matchAll(call)) {
      const at = byteOffset(sql, match.index);
      if (argument === undefined || at <= argument) best = at;
      else break;
    }
    if (best !== undefined) return best;
  }
  return argument ?? statementStart(sql);
}

function firstLocation(nodes: PlanNode[]): number | undefined {
  for (const node of nodes) {
    const own = ownLocation(node);
    if (own !== undefined) return own;
    const below = firstLocation(expressionChildren(node));
    if (below !== undefined) return below;
  }
  return undefined;
}

function hintFor(node: PlanNode): string {
  const fn = functionName(node);
  if (fn === "sum")
    return (
      "this sum is floating point (DuckDB sums UHUGEINT and floats as DOUBLE): sum a HUGEINT or " +
      "DECIMAL(38,0) instead, e.g. sum(x::HUGEINT)"
    );
  if (isFloatingFunction(fn)) {
    const hint = refusalHint(fn);
    return hint.startsWith(`\`${fn}\``) ? hint : `${fn}: ${hint}`;
  }
  if (node.expression_class === "BOUND_CAST")
    return (
      "a value becomes floating point here (a ::DOUBLE or ::FLOAT cast): keep it an integer or a " +
      "DECIMAL"
    );
  const what = fn === "" ? "this expression" : `\`${fn}\``;
  return (
    `${what} is floating point here ` +
    "(a float literal such as 1.5e0, a float argument, or DECIMAL / integer): " +
    "write the factor as an integer ratio with `//`, or as a DECIMAL literal such as 1.5"
  );
}
