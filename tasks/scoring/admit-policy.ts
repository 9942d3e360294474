import { StatementType } from "@duckdb/node-api";

import { ERRORS } from "../error-catalog.js";
import { isVipError, VipError } from "../errors.js";
import { safeText } from "../output.js";
import type { Deadline, PolicySandbox } from "./sandbox.js";
import { admit } from "../policy/admit.js";
import { boundPlanRefusals, type TableScan } from "../policy/bound-plan.js";
import type { EnginePolicy } from "../policy/engine-policy.js";
import { inexactExpressions } from "../policy/exactness.js";
import {
  listConstructs,
  type PolicyConstruct,
  textOf,
} from "../policy/place.js";
import { reservedColumnHint } from "../policy/sql-names.js";

/** A policy admitted to run: its SQL, and what a second run must settle. */
export interface AdmittedPolicy {
  sql: string;
  /** Constructs whose answer depends on ties (see `admit`). */
  undecided: PolicyConstruct[];
}

/** Score columns that hold an exact number and nothing else. */
const EXACT_SCORE =
  /^(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|DECIMAL\(\d+,\d+\))$/;

/**
 * Admits a policy, in this order, so nothing of it is bound (a table
 * function can act when bound) before its text is known to be safe:
 * exactly one statement; its parse tree against the allow-list; then bound:
 * a SELECT of `address` (text) and `score` (an exact number); no floating
 * point anywhere in the bound plan; nothing unstable, and no table but its
 * own (`reads`).
 */
export async function admitPolicy(
  sandbox: PolicySandbox,
  policy: EnginePolicy,
  reads: (scan: TableScan) => boolean,
  deadline: Deadline,
): Promise<AdmittedPolicy> {
  const { connection } = sandbox;
  // Binding folds constant expressions: it runs the policy's SQL too.
  const inEngine = <T>(step: () => Promise<T>) =>
    placingErrors(policy, () => sandbox.bounded(deadline, step));
  const sql = policy.sql.replace(/;\s*$/, "");
  const statements = await inEngine(() => connection.extractStatements(sql));
  if (statements.count !== 1)
    throw new VipError(ERRORS.SCORING.ADMISSION.POLICY_NOT_ONE_STATEMENT, {
      file: policy.file,
      count: statements.count,
    });
  const parsed = await serialized(
    inEngine,
    sandbox,
    policy,
    "json_serialize_sql",
    sql,
  );
  const admission = admit(policy, firstStatement(parsed));
  if (admission.refused.length > 0) throw refusal(policy, admission.refused);
  const prepared = await inEngine(() => statements.prepare(0));
  if (prepared.statementType !== StatementType.SELECT)
    throw new VipError(ERRORS.SCORING.ADMISSION.POLICY_NOT_SELECT, {
      file: policy.file,
    });
  const plan = await serialized(
    inEngine,
    sandbox,
    policy,
    "json_serialize_plan",
    sql,
  );
  const inexact = inexactExpressions(policy, plan.plans);
  if (inexact.length > 0) throw refusal(policy, inexact);
  const unstable = await unstableFunctions(sandbox);
  const bound = boundPlanRefusals(policy, plan.plans, { unstable, reads });
  if (bound.length > 0) throw refusal(policy, bound);
  checkColumns(policy, prepared);
  return { sql, undecided: admission.undecided };
}

interface Serialized {
  error?: boolean;
  error_message?: string;
  error_type?: string;
  statements?: unknown[];
  plans?: unknown;
}

/**
 * The policy's parse tree or bound plan as DuckDB serializes it. The text is
 * quoted, not bound: these functions take a constant only.
 */
async function serialized(
  inEngine: <T>(step: () => Promise<T>) => Promise<T>,
  sandbox: PolicySandbox,
  policy: EnginePolicy,
  fn: "json_serialize_sql" | "json_serialize_plan",
  sql: string,
): Promise<Serialized> {
  const answer = await inEngine(() =>
    sandbox.connection.runAndReadAll(
      `select ${fn}('${sql.replace(/'/g, "''")}')`,
    ),
  );
  const text = answer.getRowsJson()[0]?.[0];
  const result = JSON.parse(
    typeof text === "string" ? text : "{}",
  ) as Serialized;
  if (result.error === true) {
    const message = result.error_message ?? "DuckDB could not read the policy";
    // DuckDB says which kind of statement it serializes only in its words.
    if (/only SELECT/i.test(message))
      throw new VipError(ERRORS.SCORING.ADMISSION.POLICY_NOT_SELECT, {
        file: policy.file,
      });
    throw new VipError(ERRORS.SCORING.ADMISSION.POLICY_SQL_ERROR, {
      place: policy.file,
      reason: safeText(message),
      context: "",
    });
  }
  return result;
}

function firstStatement(parsed: Serialized): unknown {
  return parsed.statements?.[0];
}

function checkColumns(
  policy: EnginePolicy,
  prepared: {
    columnCount: number;
    columnName(i: number): string;
    columnType(i: number): { toString(): string };
  },
): void {
  const names = Array.from({ length: prepared.columnCount }, (_, i) =>
    prepared.columnName(i),
  );
  if (names.length !== 2 || names[0] !== "address" || names[1] !== "score")
    throw new VipError(ERRORS.SCORING.ADMISSION.POLICY_COLUMNS, {
      file: policy.file,
      columns: safeText(names.join(", ")),
    });
  const addressType = String(prepared.columnType(0));
  const scoreType = String(prepared.columnType(1));
  if (addressType !== "VARCHAR")
    throw new VipError(ERRORS.SCORING.ADMISSION.POLICY_ADDRESS_TYPE, {
      file: policy.file,
      type: addressType,
    });
  if (!EXACT_SCORE.test(scoreType))
    throw new VipError(ERRORS.SCORING.ADMISSION.POLICY_SCORE_TYPE, {
      file: policy.file,
      type: scoreType,
    });
}

/** Functions the engine itself marks as changing between runs or queries. */
async function unstableFunctions(sandbox: PolicySandbox): Promise<Set<string>> {
  const reader = await sandbox.connection.runAndReadAll(
    "select distinct lower(function_name) from duckdb_functions() " +
      "where stability in ('VOLATILE', 'CONSISTENT_WITHIN_QUERY')",
  );
  return new Set(reader.getRowsJson().map((row) => textOf(row[0])));
}

/** The refusal of a policy: each construct at its place, with what to write instead. */
function refusal(
  policy: EnginePolicy,
  constructs: PolicyConstruct[],
): VipError {
  const floating = constructs.every((c) => c.floating === true);
  return new VipError(
    floating
      ? ERRORS.SCORING.ADMISSION.POLICY_FLOATING
      : ERRORS.SCORING.ADMISSION.POLICY_REFUSED,
    {
      file: policy.file,
      constructs: listConstructs(policy.file, constructs),
    },
  );
}

/**
 * Runs an engine step on the policy's text; its error is reported as
 * `<policy file>:<line>`, every part of it printed safe (the engine quotes
 * the policy, and a policy may hold anything).
 */
export async function placingErrors<T>(
  policy: EnginePolicy,
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw engineError(policy, error);
  }
}

/** The engine's words about the policy, placed in its file and printed safe. */
function engineError(policy: EnginePolicy, error: unknown): VipError {
  if (isVipError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const lines = message.split("\n");
  const at = lines.findIndex((l) => /^LINE \d+:/.test(l));
  const line = at < 0 ? undefined : /^LINE (\d+):/.exec(lines[at] ?? "")?.[1];
  // The API wraps the parser's own words; they are what the author needs.
  const first = (at < 0 ? lines : lines.slice(0, at))
    .join("\n")
    .trim()
    .replace(/^Failed to extract statements: /, "");
  const context =
    at < 0
      ? ""
      : `\n${safeText(lines[at] ?? "")}\n${safeText(lines[at + 1] ?? "")}`;
  const hint = reservedColumnHint(
    first,
    policy.sources.flatMap((source) => source.columns),
  );
  return new VipError(ERRORS.SCORING.ADMISSION.POLICY_SQL_ERROR, {
    place: line === undefined ? policy.file : `${policy.file}:${line}`,
    reason: safeText(first) + hint,
    context,
  });
}
