import { existsSync } from "node:fs";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { field, type Output } from "../output.js";
import { readScoreFile, type ScoreFile } from "../scores/read.js";
import { finalScoreFile } from "../scores/score-files.js";
import { refuseTrialScores } from "../scores/trial-guard.js";
import type { ActivityContext } from "../scoring/context.js";
import { writeStageFiles } from "../scoring/publish.js";
import { scoreStage } from "../scoring/score-stage.js";

/** Where the corrected final files come from. */
export interface CorrectedSource {
  /** `--scores-dir`: `stage-<K>.final.csv` of each stage, read (or written by the policy). */
  scoresDir: string;
  /** `--policy`: each stage computed as `scores:compute` computes it. */
  policy?: { path: string; activity: ActivityContext };
}

/**
 * The corrected final file of each stage from `first` to `last`, in order:
 * with a policy, computed from the rollup's activity and written into the
 * scores folder (as `scores:compute` writes it, with its manifest); else read
 * from it. A stage without its file stops here, naming the file: a later
 * stage is never replayed from a guess.
 */
export async function correctedFiles(
  source: CorrectedSource,
  first: bigint,
  last: bigint,
  out: Output,
): Promise<ScoreFile[]> {
  const files: ScoreFile[] = [];
  for (let stage = first; stage <= last; stage++) {
    if (source.policy !== undefined)
      await computeFile(source.scoresDir, source.policy, stage, out);
    const file = finalScoreFile(source.scoresDir, stage);
    if (!existsSync(file))
      throw new VipError(ERRORS.AUTOPILOT.CORRECTION.CORRECTION_FILE_MISSING, {
        stage,
        file,
        first,
      });
    const read = await readScoreFile(file, { allowEmpty: true });
    await refuseTrialScores(read);
    files.push(read);
  }
  return files;
}

/**
 * A finalized stage computed under the policy in force for it, its files
 * written. No address is listed with 0 for the chain's sake: the corrected
 * stage goes to a new, empty contract.
 */
async function computeFile(
  scoresDir: string,
  policy: NonNullable<CorrectedSource["policy"]>,
  stage: bigint,
  out: Output,
): Promise<void> {
  const scores = await scoreStage(policy.activity, policy.path, stage);
  if (!scores.final)
    throw new VipError(ERRORS.AUTOPILOT.CORRECTION.CORRECTION_NOT_FINAL, {
      stage,
    });
  const written = await writeStageFiles(
    scoresDir,
    scores.manifest,
    scores.csv,
    scores.policy.sql,
  );
  out.line(field("computed", `${written.csv} and its manifest`));
}
