import type { VipScore } from "../../types/ethers-contracts/index.js";
import { writeStageFiles } from "../scoring/publish.js";
import type { ActivityContext } from "../scoring/context.js";
import { scoreStage, type StageScores } from "../scoring/score-stage.js";
import { stageAddresses } from "../contract/stage-pages.js";

/** The autopilot computing the scores itself (`--policy`). */
export interface PolicyScoring {
  /** A policy file or a folder of them. */
  policyPath: string;
  activity: ActivityContext;
  /** How often the live scores of a running stage are computed. */
  computeIntervalSeconds: number;
}

/**
 * Computes `stage` under the policy in force for it and writes its files into
 * the scores folder, as `scores:compute` does: `stage-N.csv` while its window
 * is open on either clock, `stage-N.final.csv` once it has closed on both,
 * each with `stage-N.manifest.json`. A final file also lists, with 0, every
 * address that holds a score on chain for the stage and that the policy no
 * longer scores, so a live score that was not earned in the end is cleared.
 */
export async function computeStageFiles(
  score: VipScore,
  scoring: PolicyScoring,
  scoresDir: string,
  stage: bigint,
  { final }: { final: boolean },
): Promise<StageScores> {
  const scores = await scoreStage(
    scoring.activity,
    scoring.policyPath,
    stage,
    final ? { onChain: () => stageAddresses(score, stage) } : {},
  );
  await writeStageFiles(scoresDir, scores.manifest, scores.csv);
  return scores;
}
