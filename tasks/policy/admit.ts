import {
  ADMITTED_COLLATIONS,
  ADMITTED_TYPES,
  type AdmittedGroup,
  admittedAs,
  isFloatingFunction,
  refusalHint,
} from "./allow-list.js";
import type { Policy } from "./parse.js";
import {
  constructAt,
  ownLocation,
  type PolicyConstruct,
  statementStart,
  textOf,
} from "./place.js";

/**
 * What the static admission found in a policy's parse tree
 * (`json_serialize_sql`), before anything is bound or run:
 * - `refused`: constructs that are not exact, not deterministic, or read
 *   beyond the policy's sources; any one of them refuses the policy;
 * - `undecided`: constructs whose result depends on ties in an order the
 *   admission cannot prove total (arg_max's key, a window's ORDER BY, a
 *   LIMIT); the policy runs a second time over its rows in another order
 *   and with another thread count, and differing answers refuse it.
 */
export interface Admission {
  refused: PolicyConstruct[];
  undecided: PolicyConstruct[];
}

type Node = Record<string, unknown>;

const QUERY_NODES = new Set([
  "SELECT_NODE",
  "SET_OPERATION_NODE",
  "RECURSIVE_CTE_NODE",
  "CTE_NODE",
]);
const TABLE_REFS = new Set([
  "BASE_TABLE",
  "JOIN",
  "SUBQUERY",
  "TABLE_FUNCTION",
  "EXPRESSION_LIST",
  "EMPTY",
]);
/** Expression classes that compute nothing order- or machine-dependent by themselves. */
const PLAIN_EXPRESSIONS = new Set([
  "CASE",
  "CAST",
  "COLUMN_REF",
  "COMPARISON",
  "CONJUNCTION",
  "CONSTANT",
  "OPERATOR",
  "STAR",
  "SUBQUERY",
  "BETWEEN",
  "LAMBDA",
  "LAMBDA_REF",
  "POSITIONAL_REFERENCE",
]);
/** Column references that DuckDB binds to the machine's clock. */
const CLOCK_COLUMNS = new Set([
  "current_date",
  "current_time",
  "current_timestamp",
  "localtime",
  "localtimestamp",
]);
const CHAIN_ORDER = "block_number, tx_index, log_index";
const TIES_HINT = `the answer depends on how ties in its order are broken: make the order total (e.g. ${CHAIN_ORDER} of one source, or the address last)`;

/**
 * Walks the parse tree of the policy's one SELECT. Every value is visited, so
 * nothing nested (a subquery in a filter, a lambda's body) is skipped.
 */
export function admit(policy: Policy, statement: unknown): Admission {
  const admission: Admission = { refused: [], undecided: [] };
  const tables = new Set(["stage", ...policy.sources.map((s) => s.table)]);
  const note = (
    list: PolicyConstruct[],
    node: Node,
    hint: string,
    fallback?: number,
    floating = false,
  ) =>
    list.push(
      constructAt(
        policy.sql,
        ownLocation(node) ?? fallback ?? statementStart(policy.sql),
        hint,
        floating,
      ),
    );
  const refuse = (node: Node, hint: string, fallback?: number) =>
    note(admission.refused, node, hint, fallback);
  const refuseFloat = (node: Node, hint: string, fallback?: number) =>
    note(admission.refused, node, hint, fallback, true);
  const undecided = (node: Node, hint: string) =>
    note(admission.undecided, node, hint);

  const visit = (
    value: unknown,
    scope: Set<string>,
    at?: number,
    parent?: Node,
  ): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, scope, at, parent);
      return;
    }
    if (value === null || typeof value !== "object") return;
    const node = value as Node;
    const here = ownLocation(node) ?? at;
    let inner = scope;
    if (typeof node.class === "string") checkExpression(node, here, parent);
    else if (isQueryNode(node)) {
      inner = withCtes(node, scope);
      checkQueryNode(node, here);
    } else if (isTableRef(node)) {
      checkTableRef(node, inner, here);
      if (node.type === "TABLE_FUNCTION") {
        // The function itself is checked as a table function above.
        visit((node.function as Node | undefined)?.children, inner, here);
        return;
      }
    } else if (isType(node)) checkType(node, here);
    const below = typeof node.class === "string" ? node : parent;
    for (const child of Object.values(node)) visit(child, inner, here, below);
  };

  const checkExpression = (node: Node, at?: number, parent?: Node): void => {
    const kind = textOf(node.class);
    if (kind === "FUNCTION") checkFunction(node, at, parent);
    else if (kind === "WINDOW") checkWindow(node, at);
    else if (kind === "COLLATE") {
      const collation = textOf(node.collation).toLowerCase();
      if (!ADMITTED_COLLATIONS.has(collation))
        refuse(
          node,
          `collation ${collation} orders text by an ICU version: use binary, nocase, noaccent or nfc`,
          at,
        );
    } else if (kind === "COLUMN_REF") {
      const names = node.column_names as string[] | undefined;
      const name = names?.length === 1 ? names[0]?.toLowerCase() : undefined;
      if (name !== undefined && CLOCK_COLUMNS.has(name))
        refuse(node, refusalHint(name), at);
    } else if (kind === "PARAMETER")
      refuse(node, "a policy takes no parameters: write the value", at);
    else if (!PLAIN_EXPRESSIONS.has(kind))
      refuse(node, `admission does not know the construct ${kind}`, at);
  };

  const checkFunction = (node: Node, at?: number, parent?: Node): void => {
    const name = textOf(node.function_name).toLowerCase();
    if (qualified(node)) {
      refuse(
        node,
        `${name} is named with a schema or catalog: call the function by its name alone`,
        at,
      );
      return;
    }
    const group = admittedAs(name).find((g) => g.kind !== "table");
    if (group === undefined || group.kind === "window") {
      const hint = refusalHint(name);
      (isFloatingFunction(name) ? refuseFloat : refuse)(
        node,
        // An operator's hint names it already (`/` divides …).
        hint.startsWith(`\`${name}\``) ? hint : `${name}: ${hint}`,
        at,
      );
      return;
    }
    if (node.export_state === true)
      refuse(
        node,
        `${name} EXPORT_STATE exports an aggregate's inner state`,
        at,
      );
    // `list(x ORDER BY x)` is parsed as list_sort(list(x)): ordered by value.
    if (sortsItsList(parent) && /^(list|array_agg)$/.test(name)) return;
    checkOrder(node, group, orderCount(node.order_bys), at);
  };

  const checkOrder = (
    node: Node,
    group: AdmittedGroup,
    orders: number,
    at?: number,
  ): void => {
    const name = textOf(node.function_name).toLowerCase();
    if (group.order === "ordered" && orders === 0)
      refuse(
        node,
        `${name} depends on the order rows arrive in: give it one, ${name}(… ORDER BY ${CHAIN_ORDER})`,
        at,
      );
    else if (group.order !== "free") undecided(node, `${name}: ${TIES_HINT}`);
  };

  const checkWindow = (node: Node, at?: number): void => {
    const name = textOf(node.function_name).toLowerCase();
    const groups = admittedAs(name).filter(
      (g) => g.kind === "window" || g.kind === "aggregate",
    );
    const group =
      node.type === "WINDOW_AGGREGATE"
        ? groups.find((g) => g.kind === "aggregate")
        : groups.find((g) => g.kind === "window");
    if (group === undefined || qualified(node)) {
      refuse(node, `${name} OVER: ${refusalHint(name)}`, at);
      return;
    }
    const orders = (node.orders as unknown[] | undefined)?.length ?? 0;
    const rowsFrame = /ROWS/.test(`${textOf(node.start)} ${textOf(node.end)}`);
    const wholePartition =
      node.start === "UNBOUNDED_PRECEDING" &&
      (node.end === "UNBOUNDED_FOLLOWING" || node.end === "CURRENT_ROW_RANGE");
    if (orders === 0 && group.order !== "free")
      refuse(
        node,
        `${name} OVER (…) without ORDER BY numbers rows in the order the engine meets them: add ORDER BY ${CHAIN_ORDER} (or another total order)`,
        at,
      );
    else if (orders === 0 && !wholePartition)
      refuse(
        node,
        `a frame of ${name} OVER (…) without ORDER BY holds whichever rows come first: add ORDER BY, or use the whole partition`,
        at,
      );
    else if (orders > 0 && (group.order !== "free" || rowsFrame))
      undecided(node, `${name} OVER (ORDER BY …): ${TIES_HINT}`);
    else if (group.order !== "free")
      checkOrder(node, group, orderCount(node.arg_orders), at);
  };

  const checkQueryNode = (node: Node, at?: number): void => {
    if (!QUERY_NODES.has(textOf(node.type)))
      refuse(
        node,
        `admission does not know the query ${textOf(node.type)}`,
        at,
      );
    if (node.sample !== null && node.sample !== undefined)
      refuse(node, "USING SAMPLE picks rows at random: use every row", at);
    const modifiers = (node.modifiers as Node[] | undefined) ?? [];
    const ordered = modifiers.some((m) => m.type === "ORDER_MODIFIER");
    for (const modifier of modifiers) {
      const limits =
        modifier.type === "LIMIT_MODIFIER" ||
        modifier.type === "LIMIT_PERCENT_MODIFIER";
      const distinctOn =
        modifier.type === "DISTINCT_MODIFIER" &&
        ((modifier.distinct_on_targets as unknown[] | undefined)?.length ?? 0) >
          0;
      if (!limits && !distinctOn) continue;
      const what = limits ? "LIMIT" : "DISTINCT ON";
      const where = (modifier.limit ?? modifier) as Node;
      if (!ordered)
        refuse(
          where,
          `${what} without ORDER BY keeps whichever rows come first: add ORDER BY a total order`,
          at,
        );
      else undecided(where, `${what} … ORDER BY: ${TIES_HINT}`);
    }
  };

  const checkTableRef = (node: Node, scope: Set<string>, at?: number): void => {
    if (node.sample !== null && node.sample !== undefined)
      refuse(node, "TABLESAMPLE picks rows at random: use every row", at);
    if (!TABLE_REFS.has(textOf(node.type)))
      refuse(node, `admission does not know ${textOf(node.type)} in FROM`, at);
    else if (node.type === "BASE_TABLE") {
      const name = textOf(node.table_name).toLowerCase();
      const named = `${textOf(node.catalog_name)}${textOf(node.schema_name)}`;
      if (named !== "" || !(tables.has(name) || scope.has(name)))
        refuse(
          node,
          `${[node.catalog_name, node.schema_name, node.table_name].filter((p) => p !== "").join(".")} is not one of the policy's tables: a policy reads its @source tables and stage, nothing else`,
          at,
        );
      if (node.at_clause !== null && node.at_clause !== undefined)
        refuse(node, "AT (…) reads a table as it was: read it as it is", at);
    } else if (node.type === "JOIN") {
      if (node.ref_type === "POSITIONAL")
        refuse(
          node,
          "POSITIONAL JOIN pairs rows by their place in storage: join on a key",
          at,
        );
      else if (node.ref_type === "ASOF")
        undecided(node, `ASOF JOIN: ${TIES_HINT}`);
    } else if (node.type === "TABLE_FUNCTION") {
      const fn = (node.function ?? {}) as Node;
      const name = textOf(fn.function_name).toLowerCase();
      if (qualified(fn) || !admittedAs(name).some((g) => g.kind === "table"))
        refuse(fn, `${name}(…) in FROM: ${refusalHint(name)}`, at);
    }
  };

  const checkType = (node: Node, at?: number): void => {
    const id = textOf(node.id);
    if (ADMITTED_TYPES.has(id)) return;
    if (id === "DOUBLE" || id === "FLOAT")
      refuseFloat(
        node,
        "a value becomes floating point here (a float literal such as 1.5e0, a ::DOUBLE or ::FLOAT cast, or a floating-point type inside a list or struct; `interval 1 day` reads its number as a DOUBLE: write interval '1 day'): keep integers or DECIMALs, e.g. 1.5 is an exact DECIMAL",
        at,
      );
    else if (id === "TIMESTAMP WITH TIME ZONE" || id === "TIME WITH TIME ZONE")
      refuse(
        node,
        "a time with a time zone depends on the machine's zone: use TIMESTAMP (make_timestamp(block_time * 1000000) is UTC)",
        at,
      );
    else
      refuse(
        node,
        `type ${id === "UNBOUND" ? "named here" : id} is not admitted: use integers, DECIMAL, VARCHAR, BOOLEAN, BLOB, DATE, TIMESTAMP, INTERVAL, or lists and structs of them`,
        at,
      );
  };

  const root = (statement as { node?: unknown } | undefined)?.node;
  visit(root, new Set());
  return admission;
}

function isQueryNode(node: Node): boolean {
  return "modifiers" in node && "cte_map" in node;
}

function isTableRef(node: Node): boolean {
  return typeof node.type === "string" && "sample" in node && "alias" in node;
}

function isType(node: Node): boolean {
  return typeof node.id === "string" && "type_info" in node;
}

/**
 * A function named in another catalog or schema than the engine's own (the
 * parser itself writes `main.list_value` for `[…]`, `system` for built-ins).
 */
function qualified(node: Node): boolean {
  const schema = textOf(node.schema).toLowerCase();
  const catalog = textOf(node.catalog).toLowerCase();
  return !["", "main"].includes(schema) || !["", "system"].includes(catalog);
}

function sortsItsList(parent: Node | undefined): boolean {
  return /^(list_sort|array_sort|list_reverse_sort|array_reverse_sort)$/.test(
    textOf(parent?.function_name).toLowerCase(),
  );
}

function orderCount(orders: unknown): number {
  return (
    ((orders as Node | null | undefined)?.orders as unknown[] | undefined)
      ?.length ?? (Array.isArray(orders) ? orders.length : 0)
  );
}

/** The names a query node's WITH clause (or a recursive CTE) adds to what tables may be named. */
function withCtes(node: Node, scope: Set<string>): Set<string> {
  const names = (
    ((node.cte_map as Node | undefined)?.map as Node[] | undefined) ?? []
  ).map((entry) => textOf(entry.key).toLowerCase());
  if (typeof node.cte_name === "string")
    names.push(node.cte_name.toLowerCase());
  return names.length === 0 ? scope : new Set([...scope, ...names]);
}
