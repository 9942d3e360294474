import type { VipScore } from "../../types/ethers-contracts/index.js";
import { stageAddresses } from "../contract/stage-pages.js";
import { ERRORS } from "../error-catalog.js";
import { isVipError } from "../errors.js";
import type { ActivityContext } from "../scoring/context.js";
import { writeStageFiles } from "../scoring/publish.js";
import { scoreStage, type StageScores } from "../scoring/score-stage.js";

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
  await writeWithPolicy(scoring, scoresDir, scores);
  return scores;
}

/**
 * The stage's files with the policy beside them. A policy changed in place
 * since a stage was published under its name is said (the folder is then
 * not the whole set to publish), never a reason to leave a stage
 * unfinalized: the score files are written without the copy.
 */
async function writeWithPolicy(
  scoring: PolicyScoring,
  scoresDir: string,
  scores: StageScores,
): Promise<void> {
  try {
    await writeStageFiles(
      scoresDir,
      scores.manifest,
      scores.csv,
      scores.policy.sql,
    );
  } catch (error) {
    if (!isVipError(error, ERRORS.SCORING.RESULTS.POLICY_COPY_DIFFERS))
      throw error;
    scoring.activity.out.warn(error.message);
    await writeStageFiles(scoresDir, scores.manifest, scores.csv);
  }
}
