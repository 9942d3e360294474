import type { IndexReport } from "../indexer/index-sources.js";
import { counted, field, formatNumber, safeText } from "../output.js";
import { computeStage, type StageComputation } from "./compute.js";
import type { ActivityContext } from "./context.js";
import { EngineProcess } from "./engine-process.js";
import { sayPolicy } from "./policy-choice.js";
import { scoreCsv, stageManifest, type StageManifest } from "./publish.js";
import { withZeros } from "./score-rows.js";
import type { StageBlocks } from "./stage-blocks.js";
import type { ScoredWindow, ScoreTarget } from "./target.js";
import { type WindowInputs, windowInputs } from "./window-inputs.js";
import { indexFile } from "../indexer/index-policies.js";
import { loadPolicies, policyForStage } from "../policy/load.js";
import type { Policy } from "../policy/parse.js";

export interface StageScores {
  policy: Policy;
  window: ScoredWindow;
  /** A trial window (`--window`): its files can never be pushed. */
  trial: boolean;
  blocks: StageBlocks;
  /** The window has closed on both clocks: the scores can no longer change. */
  final: boolean;
  computation: StageComputation;
  csv: Buffer;
  manifest: StageManifest;
  /** What indexing before the computation found and stored. */
  indexed: IndexReport;
}

interface ScoreOptions {
  /**
   * The addresses that hold a score on chain for the stage: each one the
   * policy does not score is written with 0, so a score pushed live and no
   * longer earned is cleared by the final file.
   */
  onChain?: () => Promise<string[]>;
  /** What `--policy` named: the index's rebuild command names it. */
  policyPath?: string;
}

/**
 * Each policy's scores over one window: the index brought up to the head
 * once for all of them, the window's blocks found once, then each policy run
 * on logs up to the window's last block. Every policy sees the same blocks,
 * so two policies compare over the same logs even while the rollup moves.
 */
export async function scorePolicies(
  ctx: ActivityContext,
  policies: Policy[],
  target: ScoreTarget,
  options: ScoreOptions = {},
): Promise<StageScores[]> {
  // The first policy's engine, started ahead or now: its start-up overlaps
  // the indexing.
  let engine = EngineProcess.take();
  let inputs: WindowInputs;
  const computations: StageComputation[] = [];
  try {
    inputs = await windowInputs(ctx, policies, options.policyPath, target);
    for (const [i, policy] of policies.entries()) {
      if (i > 0) engine = EngineProcess.take();
      computations.push(
        await computeStage(
          indexFile(ctx.dataDir, ctx.chainId),
          policy,
          inputs.window,
          inputs.blocks,
          { bounds: ctx.policyBounds, engine, trial: inputs.trial },
        ),
      );
    }
  } finally {
    engine.dispose();
  }
  const onChain =
    options.onChain === undefined ? undefined : await options.onChain();
  // Several policies' lines name each one.
  const named = policies.length > 1;
  return policies.map((policy, i) =>
    stageScores(
      ctx,
      { policy, named },
      inputs,
      computations[i] as StageComputation,
      onChain,
    ),
  );
}

/** One policy's computation as files and a manifest, said in a line. */
function stageScores(
  ctx: ActivityContext,
  { policy, named }: { policy: Policy; named: boolean },
  inputs: WindowInputs,
  computation: StageComputation,
  onChain: string[] | undefined,
): StageScores {
  const { window, trial, blocks, final, indexed } = inputs;
  // Each address on chain the policy does not score is written with 0.
  const { rows, zeroed } = withZeros(computation.rows, onChain ?? []);
  computation.rows = rows;
  const csv = scoreCsv(rows);
  const manifest = stageManifest(policy, inputs, computation, csv, zeroed);
  ctx.out.line(
    field(
      named ? `scores ${safeText(policy.name, 40)}` : "scores",
      `${counted(rows.scores.length, "address", "addresses")}, total ${formatNumber(BigInt(manifest.output.total))}` +
        (final ? ", final" : trial ? ", a trial" : ", live"),
    ),
  );
  return {
    policy,
    window,
    trial,
    blocks,
    final,
    computation,
    csv,
    manifest,
    indexed,
  };
}

/**
 * A stage's scores under the policy in force for it (the highest
 * `@from-stage` at or below it): its window from the base chain, its blocks
 * from the rollup's timestamps, the index brought up to the head, then the
 * policy run on logs up to the stage's last block. Final once the base chain's time is past the window's end and the rollup
 * has a block at or after it.
 */
export async function scoreStage(
  ctx: ActivityContext,
  policyPath: string,
  stage: bigint,
  options: Omit<ScoreOptions, "policyPath"> = {},
): Promise<StageScores> {
  const policy = policyForStage(await loadPolicies(policyPath), stage);
  sayPolicy(ctx.out, "policy", policy);
  const [scores] = await scorePolicies(
    ctx,
    [policy],
    { kind: "stage", stage },
    { ...options, policyPath },
  );
  return scores as StageScores;
}
