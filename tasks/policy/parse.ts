import { createHash } from "node:crypto";

import { EventFragment, type ParamType } from "ethers/abi";
import { getAddress } from "ethers/address";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { type EnginePolicy, LOG_COLUMNS } from "./engine-policy.js";

/** A column of a source's table, decoded from one event parameter. */
interface SourceColumn {
  name: string;
  /** The Solidity type as declared (`uint256`, `address`, …). */
  solidity: string;
  /** Its DuckDB type: exact integers are HUGEINT, text is VARCHAR. */
  sql: "HUGEINT" | "VARCHAR" | "BOOLEAN";
  indexed: boolean;
}

/** A `-- @source` line: a table of one contract's logs of one event. */
export interface PolicySource {
  /** The table's name in the policy's SQL. */
  table: string;
  /** Lowercase 0x address of the contract. */
  address: string;
  event: EventFragment;
  /** topic0 of the event. */
  topic: string;
  fromBlock: bigint;
  columns: SourceColumn[];
  /**
   * Names the stored log table (address, event as declared with `indexed`,
   * first block): two policies that declare the same source share its index.
   */
  id: string;
  /** Line of the `@source` in the policy file (1-based). */
  line: number;
}

export interface Policy {
  file: string;
  name: string;
  fromStage: bigint;
  sources: PolicySource[];
  /** The whole file: the header lines are SQL comments, so DuckDB's line numbers are the file's. */
  sql: string;
  sha256: string;
}

const RESERVED_TABLES = new Set(["stage"]);
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
/**
 * A Solidity identifier: a parameter's name as the contract declares it
 * (`tokenId`, `_from`, `$x`) is its column, quoted wherever the tool writes it.
 */
const SOLIDITY_IDENTIFIER = /^[a-zA-Z$_][a-zA-Z0-9$_]*$/;

/**
 * Reads a policy file's header (`-- @policy`, `-- @from-stage`, `-- @source`
 * lines) and keeps its text as the SQL to run. Every problem names the file
 * and the line.
 */
export function parsePolicy(file: string, text: string): Policy {
  const fail = (line: number, problem: string): never => {
    throw new VipError(ERRORS.SCORING.POLICY_FILES.POLICY_HEADER, {
      file,
      line,
      problem,
    });
  };
  const missing = (problem: string): never => {
    throw new VipError(ERRORS.SCORING.POLICY_FILES.POLICY_HEADER_MISSING, {
      file,
      line: 1,
      problem,
    });
  };
  let name: string | undefined;
  let fromStage: bigint | undefined;
  const sources: PolicySource[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    const directive = /^\s*--\s*@([a-z-]+)\s*(.*?)\s*$/i.exec(raw);
    if (directive === null) return;
    const [, key = "", rest = ""] = directive;
    switch (key) {
      case "policy":
        if (name !== undefined) fail(line, "a second @policy line");
        if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(rest))
          fail(
            line,
            `@policy "${rest}" must be a name of letters, digits, ".", "_" or "-"`,
          );
        name = rest;
        return;
      case "from-stage":
        if (fromStage !== undefined) fail(line, "a second @from-stage line");
        if (!/^\d+$/.test(rest))
          fail(line, `@from-stage "${rest}" must be a stage number`);
        fromStage = BigInt(rest);
        return;
      case "source":
        sources.push(parseSource(rest, line, fail));
        return;
      default:
        fail(
          line,
          `unknown header @${key}: a policy declares @policy, @from-stage and @source`,
        );
    }
  });
  if (name === undefined)
    missing("no @policy line: start the file with -- @policy <name>");
  if (fromStage === undefined)
    missing("no @from-stage line: declare -- @from-stage <first stage>");
  if (sources.length === 0)
    missing(
      "no @source line: declare each table as -- @source <table> <address> event <Signature>",
    );
  const seen = new Map<string, number>();
  for (const source of sources) {
    const earlier = seen.get(source.table);
    if (earlier !== undefined)
      fail(
        source.line,
        `table ${source.table} is declared twice (first on line ${earlier})`,
      );
    seen.set(source.table, source.line);
  }
  return {
    file,
    name: name as string,
    fromStage: fromStage as bigint,
    sources,
    sql: text,
    sha256: createHash("sha256").update(text).digest("hex"),
  };
}

function parseSource(
  rest: string,
  line: number,
  fail: (line: number, message: string) => never,
): PolicySource {
  const match =
    /^(\S+)\s+(\S+)\s+(event\s+[^(]+\(.*\))\s*(?:from-block\s+(\S+))?$/.exec(
      rest,
    );
  if (match === null)
    return fail(
      line,
      "@source must read: <table> <address> event <Name>(<type> [indexed] <name>, …) [from-block <n>]",
    );
  const [, table = "", rawAddress = "", signature = "", rawFrom] = match;
  if (!IDENTIFIER.test(table) || RESERVED_TABLES.has(table))
    fail(
      line,
      `table name "${table}" must be lowercase letters, digits and _ (and not "stage")`,
    );
  const notAddress = () =>
    fail(
      line,
      `"${rawAddress}" is not a contract address (0x and 40 hex digits, EIP-55 if mixed case)`,
    );
  if (!/^0x[0-9a-fA-F]{40}$/.test(rawAddress)) notAddress();
  let address = "";
  try {
    address = getAddress(rawAddress).toLowerCase();
  } catch {
    notAddress();
  }
  if (rawFrom !== undefined && !/^\d+$/.test(rawFrom))
    fail(line, `from-block "${rawFrom}" must be a block number`);
  let event: EventFragment;
  try {
    event = EventFragment.from(signature);
  } catch (error) {
    // ethers' own words, without the details it adds in parentheses.
    const reason = String(
      error instanceof Error ? error.message.split(" (")[0] : error,
    );
    return fail(
      line,
      `"${signature}" is not a Solidity event signature (${reason})`,
    );
  }
  if (event.anonymous)
    fail(line, "an anonymous event has no topic to filter by");
  const columns = event.inputs.map((input) => column(input, line, fail));
  // DuckDB matches names whatever their case: `Amount` is `amount`.
  const names = new Map<string, string>(
    LOG_COLUMNS.map((name) => [name, name]),
  );
  for (const c of columns) {
    const taken = names.get(c.name.toLowerCase());
    if (taken !== undefined)
      fail(
        line,
        `parameter ${c.name} clashes with ${
          (LOG_COLUMNS as readonly string[]).includes(taken)
            ? `${taken}, a column every source has`
            : `parameter ${taken} (SQL names ignore case)`
        }: rename it in the signature`,
      );
    names.set(c.name.toLowerCase(), c.name);
  }
  const fromBlock = BigInt(rawFrom ?? 0);
  const declared = event.format("full");
  return {
    table,
    address,
    event,
    topic: event.topicHash,
    fromBlock,
    columns,
    id: createHash("sha256")
      .update(`${address}\n${declared}\n${fromBlock}`)
      .digest("hex")
      .slice(0, 16),
    line,
  };
}

function column(
  input: ParamType,
  line: number,
  fail: (line: number, message: string) => never,
): SourceColumn {
  if (input.name === "")
    fail(
      line,
      `every parameter needs a name (its column): ${input.format("sighash")} has none`,
    );
  // ethers has parsed the signature, so this holds; kept for what a
  // column name may not be (a quote would end the quoted name).
  if (!SOLIDITY_IDENTIFIER.test(input.name))
    fail(
      line,
      `parameter name ${input.name} is not a Solidity identifier (letters, digits, _ and $)`,
    );
  const type = input.type;
  const indexed = input.indexed === true;
  const of = (sql: SourceColumn["sql"]): SourceColumn => ({
    name: input.name,
    solidity: type,
    sql,
    indexed,
  });
  if (input.isArray() || input.isTuple())
    return fail(
      line,
      `parameter ${input.name} is ${type}: arrays and structs are not supported as columns`,
    );
  if (/^u?int\d*$/.test(type)) return of("HUGEINT");
  if (type === "bool") return of("BOOLEAN");
  if (
    type === "address" ||
    type === "string" ||
    type === "bytes" ||
    /^bytes\d+$/.test(type)
  )
    return of("VARCHAR");
  return fail(line, `parameter ${input.name} has an unsupported type ${type}`);
}

/** The policy as the engine takes it: plain data (see `EnginePolicy`). */
export function enginePolicy(policy: Policy): EnginePolicy {
  return {
    file: policy.file,
    sql: policy.sql,
    sources: policy.sources.map((source) => ({
      table: source.table,
      id: source.id,
      line: source.line,
      address: source.address,
      event: source.event.format("full"),
      columns: source.columns.map((c) => c.name),
      columnTypes: source.columns.map((c) => c.sql),
    })),
  };
}
