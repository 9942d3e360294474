import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { taskFolder } from "../../config/settings.js";
import { contractContext } from "../../contract/context.js";
import { parseStage } from "../../contract/preflight.js";
import { ERRORS } from "../../error-catalog.js";
import { VipError } from "../../errors.js";
import { consoleOutput } from "../../output.js";
import { readScoreFile } from "../../scores/read.js";
import { pushIntentOf } from "../../scores/score-files.js";
import { refuseTrialScores } from "../../scores/trial-guard.js";
import { runScoresUpdate } from "../../scores/update.js";
import { announceSigner } from "../../signer/signer.js";

interface ScoresUpdateArgs {
  stage: string;
  file: string;
  dryRun: boolean;
  replace: boolean;
  skipUnchanged: boolean;
  fullReadBack: boolean;
  maxInFlight: number;
  batchSize: number;
  journalDir?: string;
  contract?: string;
  deploymentId?: string;
}

const action: NewTaskActionFunction<ScoresUpdateArgs> = async (args, hre) => {
  const stage = parseStage(args.stage);
  if (!Number.isInteger(args.maxInFlight) || args.maxInFlight < 0)
    throw new VipError(ERRORS.SCORES.PUSH.BAD_MAX_IN_FLIGHT, {
      value: args.maxInFlight,
    });
  if (!Number.isInteger(args.batchSize) || args.batchSize < 0)
    throw new VipError(ERRORS.SCORES.PUSH.BAD_BATCH_SIZE, {
      value: args.batchSize,
    });
  // The file is checked before the network is touched, so a bad file never
  // waits on a node or a Ledger.
  const file = await readScoreFile(args.file);
  await refuseTrialScores(file);
  const { connection, operator, signer, score } = await contractContext(
    hre,
    args,
  );
  announceSigner(consoleOutput, operator);
  await runScoresUpdate(
    score,
    signer,
    file,
    {
      stage,
      network: connection.networkName,
      dryRun: args.dryRun,
      replace: args.replace,
      skipUnchanged: args.skipUnchanged,
      fullReadBack: args.fullReadBack,
      intent: pushIntentOf(file.path),
      maxInFlight: args.maxInFlight,
      maxBatchSize: args.batchSize === 0 ? undefined : args.batchSize,
      journalDir: taskFolder(hre.config.paths.root, "journal", args.journalDir),
    },
    consoleOutput,
  );
};

export default action;
