import {
  type DuckDBConnection,
  DuckDBInstance,
  StatementType,
} from "@duckdb/node-api";

import type { StageWindow } from "../clients/stage-window.js";
import { VipError } from "../errors.js";
import { inexactExpressions } from "../policy/exactness.js";
import {
  LOG_COLUMNS,
  type Policy,
  type PolicySource,
} from "../policy/parse.js";
import type { StageBlocks } from "./stage-blocks.js";
import { logTable } from "./store.js";

const MAX_UINT64 = 2n ** 64n - 1n;

export interface ScoreRow {
  /** Lowercase 0x address. */
  address: string;
  score: bigint;
}

interface SourceDigest {
  table: string;
  address: string;
  event: string;
  logs: number;
  /** sha256 of the rows up to the stage's last block, in chain order. */
  sha256: string;
}

export interface StageComputation {
  rows: ScoreRow[];
  sources: SourceDigest[];
  engine: string;
}

/**
 * Runs a policy for one stage on the index: in a fresh in-memory database that
 * attaches the index read-only, each source is a view of its logs up to the
 * stage's last block and `stage` a one-row table. The policy is checked first:
 * one SELECT, bound without error, no floating point anywhere in its plan.
 * Its rows are then checked one by one; any problem is an error and nothing is
 * returned.
 */
export async function computeStage(
  indexFile: string,
  policy: Policy,
  window: StageWindow,
  blocks: StageBlocks,
): Promise<StageComputation> {
  // A published policy is someone else's code to a challenger: once the index
  // is attached, the engine may touch no file, no network and no extension,
  // and the policy cannot change that.
  const instance = await DuckDBInstance.create(":memory:", {
    autoinstall_known_extensions: "false",
    autoload_known_extensions: "false",
  });
  const connection = await instance.connect();
  try {
    await connection.run(
      `attach '${indexFile.replace(/'/g, "''")}' as store (read_only)`,
    );
    await connection.run("set enable_external_access = false");
    await connection.run("set lock_configuration = true");
    const last = blocks.last.number;
    await checkComplete(connection, policy, last);
    for (const source of policy.sources) {
      const columns = [...(LOG_COLUMNS as readonly string[])]
        .concat(source.columns.map((c) => `"${c.name}"`))
        .join(", ");
      await connection.run(
        `create view ${source.table} as select ${columns} from store.main.${logTable(source)} where block_number <= ${last}`,
      );
    }
    await connection.run(
      `create table stage as select ${window.stage}::BIGINT as stage, ${window.start}::BIGINT as start_time, ${window.end}::BIGINT as end_time, ${blocks.firstNumber}::BIGINT as first_block, ${last}::BIGINT as last_block`,
    );
    const sql = await checkedSql(connection, policy);
    const rows = await runPolicy(connection, policy, sql, window.stage);
    const sources: SourceDigest[] = [];
    for (const source of policy.sources)
      sources.push(await digest(connection, source));
    const version = await scalarText(connection, "select version()");
    return { rows, sources, engine: `duckdb ${version}` };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * Every source of the policy is indexed through the stage's last block: a
 * stage is never computed from an index with a gap at its end.
 */
async function checkComplete(
  connection: DuckDBConnection,
  policy: Policy,
  last: bigint,
): Promise<void> {
  for (const source of policy.sources) {
    const reader = await connection.runAndReadAll(
      "select next_block from store.main.sources where id = $1",
      [source.id],
    );
    const value = reader.getRowsJson()[0]?.[0];
    const next =
      typeof value === "string" || typeof value === "number"
        ? BigInt(value)
        : undefined;
    if (next === undefined || next <= last)
      throw new VipError(
        `the index of source ${source.table} (${policy.file}:${source.line}) ${next === undefined ? "does not exist" : `reaches only block ${next - 1n}`}, short of the stage's last block ${last}: run scores:index first`,
      );
  }
}

/** The policy's SQL, refused unless it is one SELECT with an exact plan. */
async function checkedSql(
  connection: DuckDBConnection,
  policy: Policy,
): Promise<string> {
  const sql = policy.sql.replace(/;\s*$/, "");
  const statements = await withLines(policy, () =>
    connection.extractStatements(sql),
  );
  if (statements.count !== 1)
    throw new VipError(
      `${policy.file}: a policy is exactly one SELECT; this file holds ${statements.count} statements`,
    );
  const prepared = await withLines(policy, () => statements.prepare(0));
  if (prepared.statementType !== StatementType.SELECT)
    throw new VipError(
      `${policy.file}: a policy is one SELECT, not another kind of statement`,
    );
  const names = Array.from({ length: prepared.columnCount }, (_, i) =>
    prepared.columnName(i),
  );
  if (names.length !== 2 || names[0] !== "address" || names[1] !== "score")
    throw new VipError(
      `${policy.file}: the SELECT must return exactly two columns, address and score (it returns ${names.join(", ")})`,
    );
  // json_serialize_plan takes only a constant: the text is quoted, not bound.
  const planAnswer = await scalarText(
    connection,
    `select json_serialize_plan('${sql.replace(/'/g, "''")}')`,
  );
  const plan = JSON.parse(planAnswer) as {
    error?: boolean;
    error_message?: string;
    plans?: unknown;
  };
  if (plan.error === true)
    throw new VipError(
      `${policy.file}: ${plan.error_message ?? "DuckDB could not plan the policy"}`,
    );
  const inexact = inexactExpressions(policy, plan.plans);
  if (inexact.length > 0)
    throw new VipError(
      `${policy.file}: the policy computes in floating point, so its scores would not be exact:\n` +
        inexact
          .map(
            (e) =>
              `  ${policy.file}:${e.line}:${e.column}: ${e.text}\n    ${e.hint}`,
          )
          .join("\n"),
    );
  return sql;
}

async function runPolicy(
  connection: DuckDBConnection,
  policy: Policy,
  sql: string,
  stage: bigint,
): Promise<ScoreRow[]> {
  const reader = await withLines(policy, () => connection.runAndReadAll(sql));
  const types = reader.columnTypes().map(String);
  const [addressType = "", scoreType = ""] = types;
  if (addressType !== "VARCHAR")
    throw new VipError(
      `${policy.file}: address must be text (0x…), not ${addressType}`,
    );
  if (!/INT|DECIMAL/.test(scoreType))
    throw new VipError(
      `${policy.file}: score must be an integer or a DECIMAL, not ${scoreType}`,
    );
  const raw = (reader.getRowsJson() as (string | null)[][]).map(
    ([address, score]) => ({
      address:
        address === null || address === undefined ? null : address.trim(),
      score: score === undefined ? null : score,
    }),
  );
  // Checked in address order, so the same policy names the same problems
  // whatever order the engine answered in.
  raw.sort((a, b) =>
    compareText(
      (a.address ?? "").toLowerCase(),
      (b.address ?? "").toLowerCase(),
    ),
  );
  const problems: string[] = [];
  const rows: ScoreRow[] = [];
  const seen = new Set<string>();
  for (const { address, score: rawScore } of raw) {
    const problem = checkRow(address, rawScore, seen);
    if (typeof problem === "string")
      problems.push(`stage ${stage}: ${address ?? "(NULL)"}: ${problem}`);
    else rows.push(problem);
  }
  if (problems.length > 0)
    throw new VipError(
      `${policy.file}: ${problems.length} score(s) cannot be written; nothing was written:\n` +
        problems
          .slice(0, MAX_PROBLEMS_SHOWN)
          .map((p) => `  ${p}`)
          .join("\n") +
        (problems.length > MAX_PROBLEMS_SHOWN
          ? `\n  … and ${problems.length - MAX_PROBLEMS_SHOWN} more`
          : ""),
    );
  return rows;
}

/** The first column of the first row, as text. */
async function scalarText(
  connection: DuckDBConnection,
  sql: string,
): Promise<string> {
  const value = (await connection.runAndReadAll(sql)).getRowsJson()[0]?.[0];
  if (typeof value !== "string")
    throw new VipError(`DuckDB answered ${sql} without text`);
  return value;
}

/** Problems listed in full; the rest are counted. */
const MAX_PROBLEMS_SHOWN = 20;

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One row of the policy's answer, as a score, or what is wrong with it. */
function checkRow(
  address: string | null,
  rawScore: string | null,
  seen: Set<string>,
): ScoreRow | string {
  if (address === null) return "an address is NULL";
  if (!/^0x[0-9a-fA-F]{40}$/.test(address))
    return "is not an address (0x and 40 hex digits)";
  const lower = address.toLowerCase();
  if (/^0x0{40}$/.test(lower)) return "is the zero address";
  if (seen.has(lower)) return "is listed twice (group by address)";
  seen.add(lower);
  if (rawScore === null) return "its score is NULL";
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(rawScore));
  if (match === null) return `its score ${rawScore} is not a number`;
  if (match[1] === "-" && /[1-9]/.test(`${match[2]}${match[3] ?? ""}`))
    return `its score ${rawScore} is negative`;
  // A DECIMAL is floored: its integer part, the fraction dropped.
  const score = BigInt(match[2] ?? "0");
  if (score > MAX_UINT64)
    return `its score ${score} is above the uint64 maximum ${MAX_UINT64}`;
  return { address: lower, score };
}

/**
 * A source's rows up to the stage's last block, hashed in the engine: each
 * row's columns as text joined by "," (block_number, block_time, tx_hash,
 * log_index, then the parameters as declared) is hashed with SHA-256, and the
 * row hashes, in hex and chain order (block_number, log_index), are
 * concatenated and hashed again. What a challenger compares; the README
 * states it, so it can be recomputed without this tool.
 */
async function digest(
  connection: DuckDBConnection,
  source: PolicySource,
): Promise<SourceDigest> {
  const columns = [...(LOG_COLUMNS as readonly string[])]
    .concat(source.columns.map((c) => `"${c.name}"`))
    .map((c) => `${c}::VARCHAR`)
    .join(", ");
  const reader = await connection.runAndReadAll(
    `select count(*)::BIGINT, sha256(coalesce(string_agg(sha256(concat_ws(',', ${columns})), '' order by block_number, log_index), '')) from ${source.table}`,
  );
  const [count, hash] = reader.getRowsJson()[0] ?? [];
  if (typeof hash !== "string")
    throw new VipError(`DuckDB did not digest ${source.table}`);
  return {
    table: source.table,
    address: source.address,
    event: source.event.format("full"),
    logs: Number(count),
    sha256: hash,
  };
}

/** Runs a DuckDB step; its error is reported as `<policy file>:<line>`. */
async function withLines<T>(
  policy: Policy,
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const line = /LINE (\d+):/.exec(message)?.[1];
    // The API wraps the parser's own words; they are what the author needs.
    const first = (message.split("\n")[0] ?? message).replace(
      /^Failed to extract statements: /,
      "",
    );
    throw new VipError(
      `${policy.file}${line === undefined ? "" : `:${line}`}: ${first}${line === undefined ? "" : `\n${message.slice(message.indexOf("LINE"))}`}`,
    );
  }
}
