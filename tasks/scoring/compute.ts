import { mkdir, mkdtemp, rm, rmdir } from "node:fs/promises";
import path from "node:path";

import type { StageComputation } from "./compute-engine.js";
import { EngineProcess } from "./engine-process.js";
import { keepDigestStates } from "./keep-digest-states.js";
import { DEFAULT_POLICY_BOUNDS, type PolicyBounds } from "./sandbox.js";
import type { StageBlocks } from "./stage-blocks.js";
import type { ScoredWindow } from "./target.js";
import { enginePolicy, type Policy } from "../policy/parse.js";

export type { StageComputation } from "./compute-engine.js";
export type { ScoreRow } from "./score-rows.js";

/**
 * Computes a stage's scores under a policy: a pure function of the index up
 * to the stage's last block, the policy and the window (`computeInEngine`),
 * run in a process of its own, so that the policy's bounds hold whatever it
 * does: killed at its time bound (even in a query the engine cannot
 * interrupt), and when the process holds more than its memory bound allows
 * (also memory the engine allocates outside its buffers), and an engine
 * that aborts ends that process, never this one. Its temporary files go to a
 * private folder under the index's, removed when it ends, however it ends.
 */
export async function computeStage(
  indexFile: string,
  policy: Policy,
  window: ScoredWindow,
  blocks: StageBlocks,
  {
    bounds = DEFAULT_POLICY_BOUNDS,
    engine = EngineProcess.take(),
    trial = false,
  }: {
    bounds?: PolicyBounds;
    /** Started ahead (while the index is brought up to date), or now. */
    engine?: EngineProcess;
    /** A trial window (`--window`), not a stage of the program. */
    trial?: boolean;
  } = {},
): Promise<StageComputation> {
  const tempRoot = path.join(path.dirname(indexFile), "tmp");
  await mkdir(tempRoot, { recursive: true });
  // mkdtemp makes the folder for this run alone, readable by its owner only.
  const tempDir = await mkdtemp(path.join(tempRoot, "policy-"));
  let computation: StageComputation;
  try {
    computation = await engine.run({
      kind: "stage",
      indexFile,
      policy: enginePolicy(policy),
      window,
      trial,
      blocks,
      bounds,
      tempDir,
    });
  } finally {
    await engine.disposed();
    await rm(tempDir, { recursive: true, force: true });
    // Left only while another run uses it.
    await rmdir(tempRoot).catch(() => undefined);
  }
  await keepDigestStates(indexFile, computation.digestStates ?? []);
  return computation;
}
