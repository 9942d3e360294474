import path from "node:path";

import { reasonOf } from "../errors.js";
import { type Output, safeText } from "../output.js";
import type { BatchTransport } from "./batch.js";
import { indexSources, type IndexReport } from "./index-sources.js";
import { type JsonRpcRequester, RollupReader } from "./rpc.js";
import { ActivityStore } from "./store.js";
import type { Policy } from "../policy/parse.js";

/** What indexing reads and where it writes: the rollup, and the index's folder. */
export interface IndexContext {
  provider: JsonRpcRequester;
  chainId: bigint;
  /** The network's name in the config, for the commands an error suggests. */
  networkName?: string;
  /** Where the index lives (`vip-data/` in the project unless told). */
  dataDir: string;
  out: Output;
  /** Block headers in batches (HTTP networks; see `batch.ts`). */
  batch?: BatchTransport;
}

/** The index of one rollup: `<data dir>/chain-<id>.duckdb`. */
export function indexFile(dataDir: string, chainId: bigint): string {
  return path.join(dataDir, `chain-${chainId}.duckdb`);
}

export function rollupReader(
  ctx: Pick<IndexContext, "provider" | "out" | "batch">,
): RollupReader {
  return new RollupReader(
    ctx.provider,
    (what, error) =>
      ctx.out.warn(
        `${what}: ${safeText(reasonOf(error, "with code"))}; retrying`,
      ),
    ctx.batch,
  );
}

/**
 * The index's engine's memory while it writes, in MB: not a cache of the
 * blocks written, which grew the command's memory with the index (at 160 MB,
 * a 10,000,000-log index peaked 1.21 times the 1,000,000-log one; at 64 MB,
 * 1.19 times, at the same speed). A commit's rows do not need it: DuckDB
 * writes them out as row groups fill (600,000 logs a commit, or 300,000 of
 * 2 kB each, committed under this bound).
 */
const INDEX_MEMORY_MB = 64;

/**
 * Brings every source of the policies up to the rollup's head. `policyPath`:
 * the policy file or folder as the operator gave it, for the command an
 * index of an old format is to be rebuilt with.
 */
export async function indexPolicies(
  ctx: IndexContext,
  policies: Policy[],
  {
    reader = rollupReader(ctx),
    policyPath,
  }: { reader?: RollupReader; policyPath?: string } = {},
): Promise<IndexReport> {
  const file = indexFile(ctx.dataDir, ctx.chainId);
  const store = await ActivityStore.open(file, {
    rebuild: rebuildCommand(ctx, policyPath),
    memoryMb: INDEX_MEMORY_MB,
  });
  try {
    const report = await indexSources(
      reader,
      store,
      policies.flatMap((p) => p.sources),
      ctx.out,
    );
    if (report.rewound !== undefined)
      ctx.out.warn(
        `the node replaced blocks after ${report.rewound} (a reorganization): they were indexed again`,
      );
    return report;
  } finally {
    store.close();
  }
}

/**
 * The `scores:index --rebuild` command for this network, policy and index
 * (its folder always named: run without it, the command would set aside
 * another folder's index).
 */
function rebuildCommand(
  ctx: IndexContext,
  policyPath: string | undefined,
): string {
  const network = ctx.networkName ?? "<name>";
  const policy = policyPath ?? "<policy file or folder>";
  return `npx hardhat scores:index --network ${network} --policy ${policy} --data-dir ${ctx.dataDir} --rebuild`;
}
