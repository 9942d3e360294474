import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { contractContext } from "../contract/context.js";
import { parseStage } from "../contract/preflight.js";
import { VipError } from "../errors.js";
import { readScoreFile } from "../scores/read.js";
import { consoleOutput } from "../output.js";
import { runScoresUpdate } from "./run.js";

interface ScoresUpdateArgs {
  stage?: string;
  file?: string;
  dryRun: boolean;
  contract?: string;
  deploymentId?: string;
}

const action: NewTaskActionFunction<ScoresUpdateArgs> = async (args, hre) => {
  const stage = parseStage(args.stage);
  if (args.file === undefined) throw new VipError("--file is required: a CSV (address,score) or JSON score file");
  // The file is checked before the network is touched, so a bad file never waits on a node or a Ledger.
  await readScoreFile(args.file);
  const { signer, score } = await contractContext(hre, args);
  await runScoresUpdate(score, signer, { stage, file: args.file, dryRun: args.dryRun }, consoleOutput);
};

export default action;
