import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { readOnlyContract } from "../../contract/context.js";
import { parseStage } from "../../contract/preflight.js";
import { consoleOutput } from "../../output.js";
import { readScoreFile } from "../../scores/read.js";
import { verifyScores } from "../../scores/verify.js";

interface ScoresVerifyArgs {
  stage: string;
  file: string;
  contract?: string;
  deploymentId?: string;
}

const action: NewTaskActionFunction<ScoresVerifyArgs> = async (args, hre) => {
  const stage = parseStage(args.stage);
  const file = await readScoreFile(args.file);
  const score = await readOnlyContract(hre, args);
  await verifyScores(score, stage, file, consoleOutput);
};

export default action;
