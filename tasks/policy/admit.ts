import {
  ADMITTED_COLLATIONS,
  ADMITTED_TYPES,
  type AdmittedGroup,
  admittedAs,
  isFloatingFunction,
  refusalHint,
  typeHint,
} from "./admitted-sql.js";
import { CHAIN_ORDER, type EnginePolicy } from "./engine-policy.js";
import {
  isType,
  kindOf,
  knownKind,
  type Node,
  orderCount,
  qualified,
  sortsItsList,
  unknownFields,
  withCtes,
} from "./parse-tree.js";
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

/** Walks the parse tree of the policy's one SELECT against the allow-list. */
export function admit(policy: EnginePolicy, statement: unknown): Admission {
  const admitter = new Admitter(policy);
  admitter.visit((statement as { node?: unknown } | undefined)?.node);
  return admitter.admission;
}

/** Column references that DuckDB binds to the machine's clock. */
const CLOCK_COLUMNS = new Set([
  "current_date",
  "current_time",
  "current_timestamp",
  "localtime",
  "localtimestamp",
]);
const CHAIN_POSITION = CHAIN_ORDER.join(", ");
const TIES =
  `the answer depends on how ties in its order are broken: make the order total (e.g. ` +
  `${CHAIN_POSITION} of one source, or the address last)`;
const FLOAT_TYPE =
  "a value becomes floating point here (a float literal such as 1.5e0, a ::DOUBLE or ::FLOAT cast, or a " +
  "floating-point type inside a list or struct): keep integers or DECIMALs (1.5 is an exact DECIMAL)";

/** Where a construct is reported: its own place, else its parent's. */
interface At {
  at?: number;
  floating?: boolean;
}

class Admitter {
  readonly admission: Admission = { refused: [], undecided: [] };
  readonly #tables: Set<string>;

  readonly #policy: EnginePolicy;

  constructor(policy: EnginePolicy) {
    this.#policy = policy;
    this.#tables = new Set(["stage", ...policy.sources.map((s) => s.table)]);
  }

  /**
   * Every value of the tree is visited, so nothing nested (a subquery in a
   * filter, a lambda's body) is skipped. `scope`: the WITH names in force;
   * `parent`: the expression the node is an argument of.
   */
  visit(value: unknown, scope = new Set<string>(), at?: number, parent?: Node) {
    if (Array.isArray(value)) {
      for (const item of value) this.visit(item, scope, at, parent);
      return;
    }
    if (value === null || typeof value !== "object") return;
    const node = value as Node;
    const here = ownLocation(node) ?? at;
    const kind = kindOf(node);
    if (kind !== undefined) this.#checkFields(kind, node, here);
    const inner =
      kind?.startsWith("query:") === true ? withCtes(node, scope) : scope;
    if (kind?.startsWith("expression:") === true)
      this.#expression(node, here, parent);
    else if (kind?.startsWith("query:") === true) this.#queryNode(node, here);
    else if (kind?.startsWith("table:") === true) {
      this.#tableRef(node, inner, here);
      if (node.type === "TABLE_FUNCTION") {
        // The function itself is checked as a table function.
        this.visit((node.function as Node | undefined)?.children, inner, here);
        return;
      }
    } else if (isType(node)) this.#type(node, here);
    const below = kind?.startsWith("expression:") === true ? node : parent;
    for (const child of Object.values(node))
      this.visit(child, inner, here, below);
  }

  #refuse(node: Node, hint: string, { at, floating }: At = {}): void {
    this.#note(this.admission.refused, node, hint, at, floating);
  }

  #checkTies(node: Node, hint: string): void {
    this.#note(this.admission.undecided, node, `${hint}: ${TIES}`);
  }

  #note(
    list: PolicyConstruct[],
    node: Node,
    hint: string,
    at?: number,
    floating = false,
  ): void {
    const place = ownLocation(node) ?? at ?? statementStart(this.#policy.sql);
    list.push(constructAt(this.#policy.sql, place, hint, floating));
  }

  /** A kind the admission does not know, or a field of it that it does not, is refused. */
  #checkFields(kind: string, node: Node, at?: number): void {
    if (!knownKind(kind)) {
      this.#refuse(node, `admission does not know ${kind.replace(":", " ")}`, {
        at,
      });
      return;
    }
    for (const field of unknownFields(kind, node))
      this.#refuse(
        node,
        `admission does not know ${field} of ${kind.replace(":", " ")}`,
        {
          at,
        },
      );
  }

  #expression(node: Node, at?: number, parent?: Node): void {
    const kind = textOf(node.class);
    if (kind === "FUNCTION") this.#callOf(node, at, parent);
    else if (kind === "WINDOW") this.#window(node, at);
    else if (kind === "COLLATE") {
      const collation = textOf(node.collation).toLowerCase();
      if (!ADMITTED_COLLATIONS.has(collation))
        this.#refuse(
          node,
          `COLLATE ${collation} compares different texts as equal, so which of them a result keeps ` +
            `depends on the order of rows: compare lower(x) or another exact form`,
          { at },
        );
    } else if (kind === "COLUMN_REF") {
      const names = node.column_names as string[] | undefined;
      const name = names?.length === 1 ? names[0]?.toLowerCase() : undefined;
      if (name !== undefined && CLOCK_COLUMNS.has(name))
        this.#refuse(node, `${name}: ${refusalHint(name)}`, { at });
    } else if (kind === "PARAMETER")
      this.#refuse(node, "a policy takes no parameters: write the value", {
        at,
      });
  }

  /** A function call: admitted by name, and its order checked. */
  #callOf(node: Node, at?: number, parent?: Node): void {
    const name = textOf(node.function_name).toLowerCase();
    if (qualified(node)) {
      this.#refuse(
        node,
        `${name} is named with a schema or catalog: call the function by its name alone`,
        { at },
      );
      return;
    }
    const group = admittedAs(name).find((g) => g.kind !== "table");
    if (group === undefined || group.kind === "window") {
      const hint = refusalHint(name);
      // An operator's hint names it already (`/` divides …).
      this.#refuse(
        node,
        hint.startsWith(`\`${name}\``) ? hint : `${name}: ${hint}`,
        {
          at,
          floating: isFloatingFunction(name),
        },
      );
      return;
    }
    if (node.export_state === true)
      this.#refuse(
        node,
        `${name} EXPORT_STATE exports an aggregate's inner state`,
        {
          at,
        },
      );
    if (sortsItsList(parent) && /^(list|array_agg)$/.test(name)) return;
    this.#aggregateOrder(node, name, group, orderCount(node.order_bys), at);
  }

  /** An aggregate that depends on its rows' order needs an order of its own; ties are checked. */
  #aggregateOrder(
    node: Node,
    name: string,
    group: AdmittedGroup,
    orders: number,
    at?: number,
  ): void {
    if (group.order === "ordered" && orders === 0)
      this.#refuse(
        node,
        `${name} depends on the order rows arrive in: give it one, ${name}(… ORDER BY ${CHAIN_POSITION})`,
        { at },
      );
    else if (group.order !== "free") this.#checkTies(node, name);
  }

  #window(node: Node, at?: number): void {
    const name = textOf(node.function_name).toLowerCase();
    const aggregate = node.type === "WINDOW_AGGREGATE";
    const group = admittedAs(name).find(
      (g) => g.kind === (aggregate ? "aggregate" : "window"),
    );
    if (group === undefined || qualified(node)) {
      this.#refuse(node, `${name} OVER: ${refusalHint(name)}`, {
        at,
        floating: isFloatingFunction(name),
      });
      return;
    }
    const orders = orderCount(node.orders);
    if (orders > 0) {
      // Rows ordered in the window: ties decide unless every peer is taken
      // together (a RANGE or GROUPS frame of an order-free aggregate).
      const rows = /ROWS/.test(`${textOf(node.start)} ${textOf(node.end)}`);
      if (group.order !== "free" || rows)
        this.#checkTies(node, `${name} OVER (ORDER BY …)`);
      return;
    }
    if (!aggregate && group.order !== "free")
      this.#refuse(
        node,
        `${name} OVER (…) without ORDER BY numbers rows in the order the engine meets them: add ORDER BY ` +
          `${CHAIN_POSITION} (or another total order)`,
        { at },
      );
    else if (!wholePartition(node))
      this.#refuse(
        node,
        `a frame of ${name} OVER (…) without ORDER BY holds whichever rows come first: add ORDER BY, or ` +
          `use the whole partition`,
        { at },
      );
    // Over a whole partition an aggregate is as it is under GROUP BY.
    else if (aggregate)
      this.#aggregateOrder(node, name, group, orderCount(node.arg_orders), at);
  }

  #queryNode(node: Node, at?: number): void {
    if (node.sample !== null && node.sample !== undefined)
      this.#refuse(node, "USING SAMPLE picks rows at random: use every row", {
        at,
      });
    if (orderCount(node.key_targets) > 0)
      this.#refuse(
        node,
        "WITH RECURSIVE … USING KEY keeps whichever row of a key comes last: recurse without USING KEY",
        { at },
      );
    const modifiers = (node.modifiers as Node[] | undefined) ?? [];
    const ordered = modifiers.some((m) => m.type === "ORDER_MODIFIER");
    for (const modifier of modifiers) {
      const what = keepsSomeRows(modifier);
      if (what === undefined) continue;
      const where = (modifier.limit ?? modifier) as Node;
      if (!ordered)
        this.#refuse(
          where,
          `${what} without ORDER BY keeps whichever rows come first: add ORDER BY a total order`,
          { at },
        );
      else this.#checkTies(where, `${what} … ORDER BY`);
    }
  }

  #tableRef(node: Node, scope: Set<string>, at?: number): void {
    if (node.sample !== null && node.sample !== undefined)
      this.#refuse(node, "TABLESAMPLE picks rows at random: use every row", {
        at,
      });
    if (node.type === "BASE_TABLE") this.#baseTable(node, scope, at);
    else if (node.type === "JOIN") {
      if (node.ref_type === "POSITIONAL")
        this.#refuse(
          node,
          "POSITIONAL JOIN pairs rows by their place in storage: join on a key",
          {
            at,
          },
        );
      else if (node.ref_type === "ASOF") this.#checkTies(node, "ASOF JOIN");
    } else if (node.type === "TABLE_FUNCTION") {
      const fn = (node.function ?? {}) as Node;
      const name = textOf(fn.function_name).toLowerCase();
      if (qualified(fn) || !admittedAs(name).some((g) => g.kind === "table"))
        this.#refuse(fn, `${name}(…) in FROM: ${refusalHint(name)}`, { at });
    }
  }

  /** A table named in FROM: one of the policy's, or a WITH name in force. */
  #baseTable(node: Node, scope: Set<string>, at?: number): void {
    const name = textOf(node.table_name).toLowerCase();
    const qualifier = `${textOf(node.catalog_name)}${textOf(node.schema_name)}`;
    if (qualifier !== "" || !(this.#tables.has(name) || scope.has(name))) {
      const named = [node.catalog_name, node.schema_name, node.table_name]
        .map(textOf)
        .filter((part) => part !== "")
        .join(".");
      this.#refuse(
        node,
        `${named} is not one of the policy's tables: a policy reads its @source tables and stage, ` +
          `nothing else`,
        { at },
      );
    }
    if (node.at_clause !== null && node.at_clause !== undefined)
      this.#refuse(node, "AT (…) reads a table as it was: read it as it is", {
        at,
      });
  }

  #type(node: Node, at?: number): void {
    const id = textOf(node.id);
    if (ADMITTED_TYPES.has(id)) return;
    if (id === "DOUBLE" || id === "FLOAT")
      this.#refuse(node, FLOAT_TYPE, { at, floating: true });
    else this.#refuse(node, typeHint(id), { at });
  }
}

/** Whether a window's frame is its whole partition (the default without ORDER BY). */
function wholePartition(node: Node): boolean {
  return (
    node.start === "UNBOUNDED_PRECEDING" &&
    (node.end === "UNBOUNDED_FOLLOWING" || node.end === "CURRENT_ROW_RANGE")
  );
}

/** "LIMIT" or "DISTINCT ON" for a modifier that keeps some rows of many, else undefined. */
function keepsSomeRows(modifier: Node): string | undefined {
  if (
    modifier.type === "LIMIT_MODIFIER" ||
    modifier.type === "LIMIT_PERCENT_MODIFIER"
  )
    return "LIMIT";
  if (
    modifier.type === "DISTINCT_MODIFIER" &&
    orderCount(modifier.distinct_on_targets) > 0
  )
    return "DISTINCT ON";
  return undefined;
}
