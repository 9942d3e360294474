import type { StageWindow } from "../clients/stage-window.js";
import { VipError } from "../errors.js";
import { safeText } from "../output.js";
import { LOG_COLUMNS, type Policy } from "../policy/parse.js";
import { listConstructs, textOf } from "../policy/place.js";
import type { TableScan } from "../policy/bound-plan.js";
import { type AdmittedPolicy, admitPolicy, withLines } from "./admit-policy.js";
import { CHAIN_ORDER, digestSource, type SourceDigest } from "./digest.js";
import {
  DEFAULT_POLICY_BOUNDS,
  Deadline,
  type PolicyBounds,
  PolicySandbox,
} from "./sandbox.js";
import {
  checkedRows,
  compareText,
  type RawRow,
  type ScoreRow,
} from "./score-rows.js";
import type { StageBlocks } from "./stage-blocks.js";
import { logTable } from "./store.js";

export type { ScoreRow } from "./score-rows.js";

export interface StageComputation {
  rows: ScoreRow[];
  sources: SourceDigest[];
  engine: string;
}

/** Differing addresses listed in full when two runs disagree; the rest are counted. */
const MAX_DIFFERENCES_SHOWN = 20;

/**
 * Computes a stage: a pure function of the index up to the stage's last
 * block, the policy and the window. In a sandbox (`PolicySandbox`), each
 * source is a view of its logs up to the stage's last block and `stage` a
 * one-row table; the policy is admitted (`admitPolicy`), run within its
 * bounds, and, where its answer could depend on ties in an order, run a
 * second time over its rows in reverse chain order with another thread
 * count: two answers that differ refuse it. Its rows are then checked one by
 * one; any problem is an error, and nothing is returned.
 */
export async function computeStage(
  indexFile: string,
  policy: Policy,
  window: StageWindow,
  blocks: StageBlocks,
  bounds: PolicyBounds = DEFAULT_POLICY_BOUNDS,
): Promise<StageComputation> {
  const deadline = new Deadline(bounds.timeoutSeconds);
  const sandbox = await PolicySandbox.open(indexFile, bounds);
  try {
    await checkComplete(sandbox, policy, blocks.last.number);
    await defineTables(sandbox, policy, window, blocks, "views", deadline);
    const admitted = await admitPolicy(
      sandbox,
      policy,
      readsOf(policy, "store"),
    );
    const answer = await runPolicy(sandbox, policy, admitted.sql, deadline);
    // Bad rows are named first: they are wrong in any order.
    const rows = checkedRows(policy.file, window.stage, answer);
    if (admitted.undecided.length > 0)
      await checkOrderFree(indexFile, policy, window, blocks, {
        admitted,
        answer,
        bounds,
        deadline,
        threads: await sandbox.threads(),
      });
    const sources: SourceDigest[] = [];
    for (const source of policy.sources)
      sources.push(await digestSource(sandbox, source));
    const version = (
      await sandbox.connection.runAndReadAll("select version()")
    ).getRowsJson()[0]?.[0];
    return { rows, sources, engine: `duckdb ${textOf(version)}` };
  } finally {
    await sandbox.close();
  }
}

/**
 * Every source of the policy is indexed through the stage's last block: a
 * stage is never computed from an index with a gap at its end.
 */
async function checkComplete(
  sandbox: PolicySandbox,
  policy: Policy,
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
      throw new VipError(
        `the index of source ${source.table} (${policy.file}:${source.line}) ${next === undefined ? "does not exist" : `reaches only block ${next - 1n}`}, short of the stage's last block ${last}: run scores:index first`,
      );
  }
}

/**
 * The policy's tables: each source's logs up to the stage's last block, as
 * a view of the index (`views`), or copied in reverse chain order
 * (`reversed`, the second run's), and the one-row `stage`.
 */
async function defineTables(
  sandbox: PolicySandbox,
  policy: Policy,
  window: StageWindow,
  blocks: StageBlocks,
  layout: "views" | "reversed",
  deadline: Deadline,
): Promise<void> {
  const last = blocks.last.number;
  for (const source of policy.sources) {
    const columns = [...(LOG_COLUMNS as readonly string[])]
      .concat(source.columns.map((c) => `"${c.name}"`))
      .join(", ");
    const rows = `select ${columns} from store.main.${logTable(source)} where block_number <= ${last}`;
    await sandbox.runBounded(
      layout === "views"
        ? `create view ${source.table} as ${rows}`
        : `create table ${source.table} as ${rows} order by ${CHAIN_ORDER.map((c) => `${c} desc`).join(", ")}`,
      deadline,
    );
  }
  await sandbox.connection.run(
    `create table stage as select ${window.stage}::BIGINT as stage, ${window.start}::BIGINT as start_time, ${window.end}::BIGINT as end_time, ${blocks.firstNumber}::BIGINT as first_block, ${last}::BIGINT as last_block`,
  );
}

/** The tables the policy's plan may scan, as the binder names them. */
function readsOf(
  policy: Policy,
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

async function runPolicy(
  sandbox: PolicySandbox,
  policy: Policy,
  sql: string,
  deadline: Deadline,
): Promise<RawRow[]> {
  const reader = await withLines(policy, () =>
    sandbox.runBounded(sql, deadline),
  );
  return reader.getRowsJson() as RawRow[];
}

/**
 * Runs an admitted policy whose answer may depend on ties a second time, in
 * a fresh sandbox over its rows in reverse chain order with another thread
 * count; refuses it, naming the addresses, if the two answers differ.
 */
async function checkOrderFree(
  indexFile: string,
  policy: Policy,
  window: StageWindow,
  blocks: StageBlocks,
  first: {
    admitted: AdmittedPolicy;
    answer: RawRow[];
    bounds: PolicyBounds;
    deadline: Deadline;
    threads: number;
  },
): Promise<void> {
  const { admitted, bounds, deadline } = first;
  const sandbox = await PolicySandbox.open(indexFile, bounds, {
    threads: first.threads > 1 ? 1 : 2,
  });
  let second: RawRow[];
  try {
    await defineTables(sandbox, policy, window, blocks, "reversed", deadline);
    await admitPolicy(sandbox, policy, readsOf(policy, "memory"));
    second = await runPolicy(sandbox, policy, admitted.sql, deadline);
  } finally {
    await sandbox.close();
  }
  const differences = differingAddresses(first.answer, second);
  if (differences.length === 0) return;
  throw new VipError(
    `${policy.file}: the policy's answer depends on the order its rows arrive in: run again over the same logs in another order and with another thread count, it gave other scores to ${differences.length} address(es); nothing was written:\n` +
      differences
        .slice(0, MAX_DIFFERENCES_SHOWN)
        .map((d) => `  ${d}`)
        .join("\n") +
      (differences.length > MAX_DIFFERENCES_SHOWN
        ? `\n  … and ${differences.length - MAX_DIFFERENCES_SHOWN} more`
        : "") +
      `\nWhere the order decides:\n${listConstructs(policy.file, admitted.undecided)}`,
  );
}

/** Each address whose rows differ between two answers, with both, in address order. */
function differingAddresses(a: RawRow[], b: RawRow[]): string[] {
  const scores = (rows: RawRow[]) => {
    const byAddress = new Map<string, string[]>();
    for (const [address, score] of rows) {
      const key = address ?? "(NULL)";
      byAddress.set(key, [
        ...(byAddress.get(key) ?? []),
        score === null ? "NULL" : String(score),
      ]);
    }
    return byAddress;
  };
  const one = scores(a);
  const two = scores(b);
  const said = (values: string[] | undefined) =>
    values === undefined
      ? "no row"
      : safeText([...values].sort(compareText).join(" and "), 80);
  return [...new Set([...one.keys(), ...two.keys()])]
    .sort(compareText)
    .filter((address) => said(one.get(address)) !== said(two.get(address)))
    .map(
      (address) =>
        `${safeText(address, 80)}: ${said(one.get(address))} in one run, ${said(two.get(address))} in the other`,
    );
}
