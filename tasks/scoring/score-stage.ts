import { fetchChainTime } from "../clients/l1-rest.js";
import { fetchStageWindow } from "../clients/stage-window.js";
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
import {
  type ScoredWindow,
  type ScoreTarget,
  trialWindow,
  windowLabel,
} from "./target.js";

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

/** What a window's computation reads besides the policy. */
interface WindowInputs {
  window: ScoredWindow;
  trial: boolean;
  blocks: StageBlocks;
  final: boolean;
  indexed: IndexReport;
}

/**
 * The window (a stage's from the base chain, or the trial's as given), the
 * index brought up to the rollup's head for every policy's sources, and the
 * window's blocks by their timestamps. A stage is final once the base
 * chain's time is past its end and the rollup has a block at or after it; a
 * trial is never final, and asks the base chain nothing.
 */
async function windowInputs(
  ctx: ActivityContext,
  policies: Policy[],
  policyPath: string | undefined,
  target: ScoreTarget,
): Promise<WindowInputs> {
  const trial = target.kind === "trial";
  const window = trial
    ? trialWindow(target)
    : await fetchStageWindow(ctx.l1RestUrl, ctx.moduleAddress, target.stage);
  const baseTime = trial ? undefined : await fetchChainTime(ctx.l1RestUrl);
  const reader = rollupReader(ctx);
  const indexed = await indexPolicies(ctx, policies, { reader, policyPath });
  const blocks = await stageBlocks(reader, window, indexed.head);
  ctx.out.line(
    field(
      "window",
      `${windowLabel(window, trial)}` +
        (trial
          ? " (a trial: the base chain is not asked)"
          : `: ${formatUnixTime(window.start)} to ${formatUnixTime(window.end)}`) +
        `; rollup blocks ${blocks.firstNumber}–${blocks.last.number}${blocks.closed ? "" : " (so far)"}`,
    ),
  );
  const final =
    baseTime !== undefined && baseTime >= window.end && blocks.closed;
  if (!final) ctx.out.line(field("open", openClocks(window, blocks, baseTime)));
  return { window, trial, blocks, final, indexed };
}

/**
 * Which clock has not reached the window's end yet, and where it stands:
 * what a newcomer waits for.
 */
function openClocks(
  window: ScoredWindow,
  blocks: StageBlocks,
  baseTime: bigint | undefined,
): string {
  const end = formatUnixTime(window.end);
  const said: string[] = [];
  if (baseTime !== undefined && baseTime < window.end)
    said.push(
      `the base chain's time is ${formatUnixTime(baseTime)}, before the end ${end}`,
    );
  if (!blocks.closed)
    said.push(
      `the rollup's last block (${blocks.last.number}) is at ${formatUnixTime(blocks.last.time)}, ` +
        `before the end ${end}: the window closes on the rollup at its first block at or after it`,
    );
  if (baseTime === undefined)
    said.push(
      blocks.closed
        ? "the window has closed on the rollup; a trial's scores are never final"
        : "a trial's scores are never final",
    );
  return said.join("; ");
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
  const zeroed = onChain === undefined ? [] : addZeros(computation, onChain);
  const csv = scoreCsv(computation.rows);
  const manifest = stageManifest(policy, inputs, computation, csv, zeroed);
  ctx.out.line(
    field(
      named ? `scores ${policy.name}` : "scores",
      `${formatNumber(computation.rows.length)} addresses, total ${formatNumber(BigInt(manifest.output.total))}` +
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
 * The policy of `policyPath` that a target runs: a stage's, the one in force
 * for it; a trial's, the one in force for its `--stage-number`, else the
 * latest (the one in force now).
 */
export function policyForTarget(
  policies: Policy[],
  target: ScoreTarget,
): Policy {
  if (target.kind === "stage") return policyForStage(policies, target.stage);
  if (target.stageNumber !== null)
    return policyForStage(policies, target.stageNumber);
  return policies.reduce((latest, policy) =>
    policy.fromStage > latest.fromStage ? policy : latest,
  );
}

/** Says which policy runs, and where it comes from. */
export function sayPolicy(ctx: ActivityContext, policy: Policy): void {
  ctx.out.line(
    field(
      "policy",
      `${policy.name} (${policy.file}, from stage ${policy.fromStage}, sha256 ${policy.sha256.slice(0, 16)}…)`,
    ),
  );
}

/**
 * A window's scores under the policy of `policyPath` that applies to it (see
 * `policyForTarget`): its window, its blocks from the rollup's timestamps,
 * the index brought up to the head, then the policy run on logs up to the
 * window's last block.
 */
async function scoreTarget(
  ctx: ActivityContext,
  policyPath: string,
  target: ScoreTarget,
  options: Omit<ScoreOptions, "policyPath"> = {},
): Promise<StageScores> {
  const policy = policyForTarget(await loadPolicies(policyPath), target);
  sayPolicy(ctx, policy);
  const [scores] = await scorePolicies(ctx, [policy], target, {
    ...options,
    policyPath,
  });
  return scores as StageScores;
}

/**
 * A stage's scores under the policy in force for it (see `scoreTarget`).
 * Final once the base chain's time is past the window's end and the rollup
 * has a block at or after it.
 */
export async function scoreStage(
  ctx: ActivityContext,
  policyPath: string,
  stage: bigint,
  options: Omit<ScoreOptions, "policyPath"> = {},
): Promise<StageScores> {
  return scoreTarget(ctx, policyPath, { kind: "stage", stage }, options);
}
