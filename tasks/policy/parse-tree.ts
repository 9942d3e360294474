import { textOf } from "./place.js";

/**
 * The shapes of DuckDB's parse tree (`json_serialize_sql`, DuckDB 1.5) as
 * the admission reads them: which node is which, the fields each kind has,
 * and the few facts about a node the rules ask for.
 */
export type Node = Record<string, unknown>;

/** A node's kind: `expression:FUNCTION`, `query:SELECT_NODE`, `table:JOIN`, `modifier:…`. */
export function kindOf(node: Node): string | undefined {
  if (typeof node.class === "string") return `expression:${node.class}`;
  if ("modifiers" in node && "cte_map" in node)
    return `query:${textOf(node.type)}`;
  if (typeof node.type === "string" && "sample" in node && "alias" in node)
    return `table:${node.type}`;
  if (typeof node.type === "string" && node.type.endsWith("_MODIFIER"))
    return `modifier:${node.type}`;
  return undefined;
}

export function isType(node: Node): boolean {
  return typeof node.id === "string" && "type_info" in node;
}

const fields = (text: string) => new Set(text.trim().split(/\s+/));
const EXPRESSION = "class type alias query_location";
const TABLE = "type alias sample query_location";

/**
 * The fields each kind of node has, read off the trees of every construct
 * the admission knows. A field outside these with a value is a construct
 * the admission has not judged, and is refused rather than let through.
 */
const KNOWN_FIELDS = new Map<string, Set<string>>([
  ["expression:BETWEEN", fields(`${EXPRESSION} input lower upper`)],
  ["expression:CASE", fields(`${EXPRESSION} case_checks else_expr`)],
  ["expression:CAST", fields(`${EXPRESSION} child cast_type try_cast`)],
  ["expression:COLLATE", fields(`${EXPRESSION} child collation`)],
  ["expression:COLUMN_REF", fields(`${EXPRESSION} column_names`)],
  ["expression:COMPARISON", fields(`${EXPRESSION} left right`)],
  ["expression:CONJUNCTION", fields(`${EXPRESSION} children`)],
  ["expression:CONSTANT", fields(`${EXPRESSION} value`)],
  [
    "expression:FUNCTION",
    fields(
      `${EXPRESSION} function_name schema catalog children filter order_bys distinct is_operator ` +
        `export_state`,
    ),
  ],
  ["expression:LAMBDA", fields(`${EXPRESSION} lhs expr`)],
  ["expression:LAMBDA_REF", fields(`${EXPRESSION} lambda_idx column_name`)],
  ["expression:OPERATOR", fields(`${EXPRESSION} children`)],
  ["expression:PARAMETER", fields(`${EXPRESSION} identifier`)],
  ["expression:POSITIONAL_REFERENCE", fields(`${EXPRESSION} index`)],
  [
    "expression:STAR",
    fields(
      `${EXPRESSION} relation_name exclude_list replace_list columns expr qualified_exclude_list rename_list`,
    ),
  ],
  [
    "expression:SUBQUERY",
    fields(`${EXPRESSION} subquery_type subquery child comparison_type`),
  ],
  [
    "expression:WINDOW",
    fields(
      `${EXPRESSION} function_name schema catalog children partitions orders start end start_expr ` +
        `end_expr offset_expr default_expr ignore_nulls filter_expr exclude_clause distinct arg_orders`,
    ),
  ],
  ["modifier:DISTINCT_MODIFIER", fields("type distinct_on_targets")],
  ["modifier:LIMIT_MODIFIER", fields("type limit offset")],
  ["modifier:LIMIT_PERCENT_MODIFIER", fields("type limit offset")],
  ["modifier:ORDER_MODIFIER", fields("type orders")],
  [
    "query:RECURSIVE_CTE_NODE",
    fields(
      "type modifiers cte_map cte_name union_all left right aliases key_targets",
    ),
  ],
  [
    "query:SELECT_NODE",
    fields(
      "type modifiers cte_map select_list from_table where_clause group_expressions group_sets " +
        "aggregate_handling having sample qualify",
    ),
  ],
  [
    "query:SET_OPERATION_NODE",
    fields("type modifiers cte_map setop_type left right setop_all"),
  ],
  [
    "table:BASE_TABLE",
    fields(
      `${TABLE} schema_name table_name column_name_alias catalog_name at_clause`,
    ),
  ],
  ["table:EMPTY", fields(TABLE)],
  [
    "table:EXPRESSION_LIST",
    fields(`${TABLE} expected_names expected_types values`),
  ],
  [
    "table:JOIN",
    fields(
      `${TABLE} left right condition join_type ref_type using_columns delim_flipped ` +
        `duplicate_eliminated_columns`,
    ),
  ],
  ["table:SUBQUERY", fields(`${TABLE} subquery column_name_alias`)],
  [
    "table:TABLE_FUNCTION",
    fields(`${TABLE} function column_name_alias with_ordinality`),
  ],
]);

/** Whether the admission knows nodes of `kind` (and their fields). */
export function knownKind(kind: string): boolean {
  return KNOWN_FIELDS.has(kind);
}

/** The fields of `node` (of `kind`) the admission does not know, that hold something. */
export function unknownFields(kind: string, node: Node): string[] {
  const known = KNOWN_FIELDS.get(kind);
  if (known === undefined) return [];
  return Object.keys(node).filter(
    (key) => !known.has(key) && !isEmpty(node[key]),
  );
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return true;
  if (value === "") return true;
  if (Array.isArray(value)) return value.every(isEmpty);
  if (typeof value === "object")
    return Object.values(value as Node).every(isEmpty);
  return false;
}

/**
 * A function named in another catalog or schema than the engine's own (the
 * parser itself writes `main.list_value` for `[…]`, `system` for built-ins).
 */
export function qualified(node: Node): boolean {
  const schema = textOf(node.schema).toLowerCase();
  const catalog = textOf(node.catalog).toLowerCase();
  return !["", "main"].includes(schema) || !["", "system"].includes(catalog);
}

/** How many ORDER BY terms a function's `order_bys` or a window's `arg_orders` holds. */
export function orderCount(orders: unknown): number {
  if (Array.isArray(orders)) return orders.length;
  const inner = (orders as Node | null | undefined)?.orders;
  return Array.isArray(inner) ? inner.length : 0;
}

/** The names a query node's WITH clause (or a recursive CTE) adds to the tables that may be named. */
export function withCtes(node: Node, scope: Set<string>): Set<string> {
  const entries = ((node.cte_map as Node | undefined)?.map ?? []) as Node[];
  const names = entries.map((entry) => textOf(entry.key).toLowerCase());
  if (typeof node.cte_name === "string")
    names.push(node.cte_name.toLowerCase());
  return names.length === 0 ? scope : new Set([...scope, ...names]);
}

/** `list(x ORDER BY x)` is parsed as list_sort(list(x)): ordered by value. */
export function sortsItsList(parent: Node | undefined): boolean {
  return /^(list_sort|array_sort|list_reverse_sort|array_reverse_sort)$/.test(
    textOf(parent?.function_name).toLowerCase(),
  );
}
