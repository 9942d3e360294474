import { fetchChainTime } from "../clients/l1-rest.js";
import { fetchStageWindow, type StageWindow } from "../clients/stage-window.js";
import { field, formatNumber, formatUnixTime } from "../output.js";
import { loadPolicies, policyForStage } from "../policy/load.js";
import type { Policy } from "../policy/parse.js";
import type { ActivityContext } from "./context.js";
import { computeStage, type StageComputation } from "./compute.js";
import { EngineProcess } from "./engine-process.js";
import {
  indexFile,
  indexPolicies,
  rollupReader,
} from "../indexer/index-policies.js";
import type { IndexReport } from "../indexer/index-sources.js";
import { scoreCsv, stageManifest, type StageManifest } from "./publish.js";
import { stageBlocks, type StageBlocks } from "./stage-blocks.js";

export interface StageScores {
  policy: Policy;
  window: StageWindow;
  blocks: StageBlocks;
  /** The window has closed on both clocks: the scores can no longer change. */
  final: boolean;
  computation: StageComputation;
  csv: Buffer;
  manifest: StageManifest;
  /** What indexing before the computation found and stored. */
  indexed: IndexReport;
}

/** What a stage's computation reads besides the policy. */
interface StageInputs {
  window: StageWindow;
  blocks: StageBlocks;
  final: boolean;
  indexed: IndexReport;
}

/**
 * A stage's window from the base chain, the index brought up to the
 * rollup's head, and the stage's blocks by their timestamps. Final once the
 * base chain's time is past the window's end and the rollup has a block at
 * or after it.
 */
async function stageInputs(
  ctx: ActivityContext,
  policy: Policy,
  policyPath: string,
  stage: bigint,
): Promise<StageInputs> {
  const window = await fetchStageWindow(
    ctx.l1RestUrl,
    ctx.moduleAddress,
    stage,
  );
  const baseTime = await fetchChainTime(ctx.l1RestUrl);
  const reader = rollupReader(ctx);
  const indexed = await indexPolicies(ctx, [policy], {
    reader,
    policyPath,
  });
  const blocks = await stageBlocks(reader, window, indexed.head);
  ctx.out.line(
    field(
      "window",
      `stage ${stage}: ${formatUnixTime(window.start)} to ${formatUnixTime(window.end)}; ` +
        `rollup blocks ${blocks.firstNumber}–${blocks.last.number}${blocks.closed ? "" : " (so far)"}`,
    ),
  );
  return {
    window,
    blocks,
    final: baseTime >= window.end && blocks.closed,
    indexed,
  };
}

/**
 * Adds each of `addresses` the computation does not score, with 0, keeping
 * the rows in address order; returns those added.
 */
function addZeros(
  computation: StageComputation,
  addresses: string[],
): string[] {
  const scored = new Set(computation.rows.map((r) => r.address));
  const zeroed = [...new Set(addresses.map((a) => a.toLowerCase()))]
    .filter((a) => !scored.has(a))
    .sort();
  if (zeroed.length === 0) return zeroed;
  computation.rows.push(...zeroed.map((address) => ({ address, score: 0n })));
  computation.rows.sort((a, b) =>
    a.address < b.address ? -1 : a.address > b.address ? 1 : 0,
  );
  return zeroed;
}

/**
 * A stage's scores under the policy in force for it: its window from the base
 * chain, its blocks from the rollup's timestamps, the index brought up to the
 * head, then the policy run on logs up to the stage's last block. Final once
 * the base chain's time is past the window's end and the rollup has a block
 * at or after it.
 */
export async function scoreStage(
  ctx: ActivityContext,
  policyPath: string,
  stage: bigint,
  options: {
    /**
     * The addresses that hold a score on chain for the stage: each one the
     * policy does not score is written with 0, so a score pushed live and no
     * longer earned is cleared by the final file.
     */
    onChain?: () => Promise<string[]>;
  } = {},
): Promise<StageScores> {
  const policy = policyForStage(await loadPolicies(policyPath), stage);
  ctx.out.line(
    field(
      "policy",
      `${policy.name} (${policy.file}, from stage ${policy.fromStage}, sha256 ${policy.sha256.slice(0, 16)}…)`,
    ),
  );
  // The policy's engine, started ahead or now: its start-up overlaps the
  // indexing.
  const engine = EngineProcess.take();
  let computation: StageComputation;
  let inputs: StageInputs;
  try {
    inputs = await stageInputs(ctx, policy, policyPath, stage);
    computation = await computeStage(
      indexFile(ctx.dataDir, ctx.chainId),
      policy,
      inputs.window,
      inputs.blocks,
      ctx.policyBounds,
      engine,
    );
  } finally {
    engine.dispose();
  }
  const { window, blocks, final, indexed } = inputs;
  const zeroed =
    options.onChain === undefined
      ? []
      : addZeros(computation, await options.onChain());
  const csv = scoreCsv(computation.rows);
  const manifest = stageManifest(
    policy,
    window,
    blocks,
    final,
    computation,
    csv,
    zeroed,
  );
  ctx.out.line(
    field(
      "scores",
      `${formatNumber(computation.rows.length)} addresses, total ${formatNumber(BigInt(manifest.output.total))}` +
        (final
          ? ", final"
          : ", live (the window has not closed on both clocks)"),
    ),
  );
  return {
    policy,
    window,
    blocks,
    final,
    computation,
    csv,
    manifest,
    indexed,
  };
}
