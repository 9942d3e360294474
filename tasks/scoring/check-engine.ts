import { errorOnWire, type WireError } from "../error-wire.js";
import { isVipError } from "../errors.js";
import { admitPolicy } from "./admit-policy.js";
import { Deadline, type PolicyBounds, PolicySandbox } from "./sandbox.js";
import {
  type EnginePolicy,
  LOG_COLUMN_TYPES,
  LOG_COLUMNS,
} from "../policy/engine-policy.js";
import type { PolicyConstruct } from "../policy/place.js";
import { textOf } from "../policy/place.js";

/** Policies to check alone, as plain data: what crosses into the engine's process. */
export interface CheckJob {
  kind: "check";
  policies: EnginePolicy[];
  /** Each policy's bounds (its time bound applies to each one). */
  bounds: PolicyBounds;
  /** A private folder of this run for the engine's temporary files. */
  tempDir: string;
}

/** Each policy's check, in order: what it found, or the policy's refusal. */
export type CheckOutcome = { check: PolicyCheck } | { refusal: WireError };

/** What the check found of an admitted policy. */
export interface PolicyCheck {
  /** Constructs whose answer depends on ties: a stage runs the policy twice. */
  undecided: PolicyConstruct[];
  engine: string;
}

/**
 * Admits a policy with no index and no chain (in the engine's process, as a
 * stage is computed): each source an empty table of the columns its logs
 * would have, `stage` an empty table of its own, then the whole admission a
 * stage's run does (the parse tree against the allow-list, the binding, the
 * bound plan's exactness and tables). What it refuses here, a stage would
 * refuse; what it admits runs over any stage's logs.
 */
export async function checkInEngine(job: CheckJob): Promise<CheckOutcome[]> {
  const outcomes: CheckOutcome[] = [];
  for (const policy of job.policies)
    outcomes.push(
      await checkOne(policy, job).then(
        (check) => ({ check }),
        (error: unknown) => {
          // Anything but a refusal is the engine's own failure: the job's.
          if (!isVipError(error)) throw error;
          return { refusal: errorOnWire(error) };
        },
      ),
    );
  return outcomes;
}

async function checkOne(
  policy: EnginePolicy,
  job: CheckJob,
): Promise<PolicyCheck> {
  const deadline = new Deadline(job.bounds.timeoutSeconds, policy.file);
  const sandbox = await PolicySandbox.open(undefined, job.bounds, {
    tempDir: job.tempDir,
  });
  try {
    for (const source of policy.sources) {
      const columns = [
        ...LOG_COLUMNS.map((name) => `${name} ${LOG_COLUMN_TYPES[name]}`),
        ...source.columns.map(
          (name, i) => `"${name}" ${source.columnTypes[i] ?? "VARCHAR"}`,
        ),
      ];
      await sandbox.connection.run(
        `create table ${source.table} (${columns.join(", ")})`,
      );
    }
    await sandbox.connection.run(
      "create table stage (stage BIGINT, start_time BIGINT, end_time BIGINT, " +
        "first_block BIGINT, last_block BIGINT)",
    );
    const tables = new Set(
      ["stage", ...policy.sources.map((s) => s.table)].map(
        (table) => `memory.main.${table}`,
      ),
    );
    const admitted = await admitPolicy(
      sandbox,
      policy,
      ({ catalog, schema, table }) =>
        tables.has(`${catalog}.${schema}.${table}`),
      deadline,
    );
    const version = (
      await sandbox.connection.runAndReadAll("select version()")
    ).getRowsJson()[0]?.[0];
    return {
      undecided: admitted.undecided,
      engine: `duckdb ${textOf(version)}`,
    };
  } finally {
    sandbox.close();
  }
}
