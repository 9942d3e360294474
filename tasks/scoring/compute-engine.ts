import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { indentedList, safeText } from "../output.js";
import { type AdmittedPolicy, admitPolicy } from "./admit-policy.js";
import { digestSources, type SourceDigest } from "./digest.js";
import { checkedAnswer } from "./policy-answer.js";
import { Deadline, type PolicyBounds, PolicySandbox } from "./sandbox.js";
import { type PackedRows, type ScoreRow, unpackRows } from "./score-rows.js";
import type { StageBlocks } from "./stage-blocks.js";
import { type ScoredWindow, windowLabel } from "./target.js";
import type { KeptDigestState } from "../indexer/digest-states.js";
import { logTable } from "../indexer/store.js";
import type { TableScan } from "../policy/bound-plan.js";
import {
  CHAIN_ORDER,
  type EnginePolicy,
  policyColumns,
} from "../policy/engine-policy.js";
import { listConstructs, textOf } from "../policy/place.js";

/** One stage to compute, as plain data: what crosses into the engine's process. */
export interface StageJob {
  kind: "stage";
  indexFile: string;
  policy: EnginePolicy;
  window: ScoredWindow;
  /** A trial window (`--window`), not a stage of the program. */
  trial: boolean;
  blocks: StageBlocks;
  bounds: PolicyBounds;
  /** A private folder of this run for the engine's temporary files. */
  tempDir: string;
}

export interface StageComputation {
  /** In address order. */
  rows: PackedRows;
  sources: SourceDigest[];
  /** The sources' digest states at the last block, for the index to keep. */
  digestStates?: KeptDigestState[];
  engine: string;
}

/**
 * The policy's engine runs on one thread. On two, each thread aggregates
 * into a table of its own before they are merged: over a synthetic
 * 10,000,000-log index with 1,000,000 addresses the engine's process peaked
 * at 717-781 MB (three runs) against 554-557 MB on one thread, which took
 * 0.6 s longer (2.2 s against 1.5 s to the packed answer); at 1,000,000 logs
 * the two are within 0.05 s. The order-free check's second run takes
 * another count (two).
 */
const POLICY_THREADS = 1;

/** Differing addresses listed in full when two runs disagree; the rest are counted. */
const MAX_DIFFERENCES_SHOWN = 20;

/**
 * Computes a stage in this process (the engine's; see `computeStage`): a pure
 * function of the index up to the stage's last block, the policy and the
 * window. In a sandbox, each source is a view of its logs up to the stage's
 * last block and `stage` a one-row table; the policy is admitted, run within
 * its deadline, its rows checked, and, where its answer could depend on ties
 * in an order, run a second time over its rows in reverse chain order with
 * another thread count: two answers that differ refuse it. Then each
 * source's digest.
 */
export async function computeInEngine(
  job: StageJob,
): Promise<StageComputation> {
  const { policy } = job;
  const deadline = new Deadline(job.bounds.timeoutSeconds, policy.file);
  const sandbox = await PolicySandbox.open(job.indexFile, job.bounds, {
    tempDir: job.tempDir,
    threads: POLICY_THREADS,
  });
  // Past its answer the engine holds only that table (it has let go of the
  // index): closing it takes some 30 ms and gives back what its allocator
  // kept, before the digest's engine starts.
  const { rows, admitted, version } = await answerPolicy(
    sandbox,
    job,
    deadline,
  ).finally(() => sandbox.close());
  if (admitted.undecided.length > 0)
    await checkOrderFree(job, admitted, rows, deadline);
  // Last, in an engine of its own, once the policy's has let go of the
  // index: the two never hold it at once.
  const { sources, states } = await digestSources(
    job.indexFile,
    policy.sources,
    {
      last: job.blocks.last.number,
      tempDir: job.tempDir,
    },
  );
  return {
    rows,
    sources,
    digestStates: states,
    engine: `duckdb ${textOf(version)}`,
  };
}

/**
 * The policy's answer in its sandbox: the index checked complete, the
 * tables defined, the policy admitted and run, its rows checked; with the
 * engine's version, which the manifest names.
 */
async function answerPolicy(
  sandbox: PolicySandbox,
  job: StageJob,
  deadline: Deadline,
): Promise<{ rows: PackedRows; admitted: AdmittedPolicy; version: unknown }> {
  const { policy } = job;
  await checkComplete(sandbox, policy, job.blocks.last.number);
  await defineTables(sandbox, job, "views", deadline);
  const admitted = await admitPolicy(
    sandbox,
    policy,
    readsOf(policy, "store"),
    deadline,
  );
  // Bad rows are named first: they are wrong in any order.
  const rows = await checkedAnswer(sandbox, policy, {
    sql: admitted.sql,
    label: windowLabel(job.window, job.trial),
    deadline,
  });
  const version = (
    await sandbox.connection.runAndReadAll("select version()")
  ).getRowsJson()[0]?.[0];
  return { rows, admitted, version };
}

/**
 * Every source of the policy is indexed through the stage's last block: a
 * stage is never computed from an index with a gap at its end.
 */
async function checkComplete(
  sandbox: PolicySandbox,
  policy: EnginePolicy,
  last: bigint,
): Promise<void> {
  for (const source of policy.sources) {
    const reader = await sandbox.connection.runAndReadAll(
      "select next_block from store.main.sources where id = $1",
      [source.id],
    );
    const value = reader.getRowsJson()[0]?.[0];
    const next =
      typeof value === "string" || typeof value === "number"
        ? BigInt(value)
        : undefined;
    if (next === undefined || next <= last)
      throw new VipError(ERRORS.SCORING.RUN.INDEX_SHORT, {
        table: source.table,
        file: policy.file,
        line: source.line,
        reach:
          next === undefined
            ? "does not exist"
            : `reaches only block ${next - 1n}`,
        last,
      });
  }
}

/**
 * The policy's tables: each source's logs up to the stage's last block, as
 * a view of the index (`views`), or copied in reverse chain order
 * (`reversed`, the second run's), and the one-row `stage`.
 */
async function defineTables(
  sandbox: PolicySandbox,
  { policy, window, blocks }: StageJob,
  layout: "views" | "reversed",
  deadline: Deadline,
): Promise<void> {
  const last = blocks.last.number;
  for (const source of policy.sources) {
    const rows =
      `select ${policyColumns(source).join(", ")} ` +
      `from store.main.${logTable(source)} where block_number <= ${last}`;
    await sandbox.runBounded(
      layout === "views"
        ? `create view ${source.table} as ${rows}`
        : `create table ${source.table} as ${rows} order by ${CHAIN_ORDER.map((c) => `${c} desc`).join(", ")}`,
      deadline,
    );
  }
  await sandbox.connection.run(
    `create table stage as select ${window.stage ?? "NULL"}::BIGINT as stage, ` +
      `${window.start}::BIGINT as start_time, ${window.end}::BIGINT as end_time, ` +
      `${blocks.firstNumber}::BIGINT as first_block, ${last}::BIGINT as last_block`,
  );
}

/** The tables the policy's plan may scan, as the binder names them. */
function readsOf(
  policy: EnginePolicy,
  layout: "store" | "memory",
): (scan: TableScan) => boolean {
  const allowed = new Set(["memory.main.stage"]);
  for (const source of policy.sources)
    allowed.add(
      layout === "store"
        ? `store.main.${logTable(source)}`
        : `memory.main.${source.table}`,
    );
  return ({ catalog, schema, table }) =>
    allowed.has(`${catalog}.${schema}.${table}`);
}

/**
 * Runs an admitted policy whose answer may depend on ties a second time, in
 * a fresh sandbox over its rows in reverse chain order with another thread
 * count; refuses it, naming the addresses, if the two answers differ once
 * checked (so two answers that make the same file are the same).
 */
async function checkOrderFree(
  job: StageJob,
  admitted: AdmittedPolicy,
  first: PackedRows,
  deadline: Deadline,
): Promise<void> {
  const { policy } = job;
  const sandbox = await PolicySandbox.open(job.indexFile, job.bounds, {
    tempDir: job.tempDir,
    threads: POLICY_THREADS > 1 ? 1 : 2,
  });
  let second: PackedRows;
  try {
    await defineTables(sandbox, job, "reversed", deadline);
    await admitPolicy(sandbox, policy, readsOf(policy, "memory"), deadline);
    second = await checkedAnswer(sandbox, policy, {
      sql: admitted.sql,
      label: windowLabel(job.window, job.trial),
      deadline,
    });
  } finally {
    sandbox.close();
  }
  if (samePacked(first, second)) return;
  const differences = differingScores(unpackRows(first), unpackRows(second));
  if (differences.length === 0) return;
  throw new VipError(ERRORS.SCORING.ADMISSION.POLICY_ORDER_DEPENDENT, {
    file: policy.file,
    count: differences.length,
    differences: indentedList(differences, MAX_DIFFERENCES_SHOWN),
    constructs: listConstructs(policy.file, admitted.undecided),
  });
}

/** Two packed answers hold the same rows (both are in address order). */
function samePacked(a: PackedRows, b: PackedRows): boolean {
  return (
    Buffer.compare(a.addresses, b.addresses) === 0 &&
    a.scores.length === b.scores.length &&
    a.scores.every((score, i) => score === b.scores[i])
  );
}

/** Each address whose score differs between two checked answers, with both, in address order. */
function differingScores(a: ScoreRow[], b: ScoreRow[]): string[] {
  const one = new Map(a.map((row) => [row.address, row.score]));
  const two = new Map(b.map((row) => [row.address, row.score]));
  const said = (score: bigint | undefined) =>
    score === undefined ? "no score" : String(score);
  return [...new Set([...one.keys(), ...two.keys()])]
    .sort()
    .filter((address) => one.get(address) !== two.get(address))
    .map(
      (address) =>
        `${safeText(address, 80)}: ${said(one.get(address))} in one run, ${said(two.get(address))} in the other`,
    );
}
