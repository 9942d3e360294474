import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { taskFolder } from "../../config/settings.js";
import { contractContext } from "../../contract/context.js";
import { runFinalize } from "../../contract/finalize-open-stage.js";
import { parseStage, preflight } from "../../contract/preflight.js";
import { requireStageEnded } from "../../contract/stage-ended.js";
import { ERRORS } from "../../error-catalog.js";
import { VipError } from "../../errors.js";
import { consoleOutput } from "../../output.js";
import { announceSigner } from "../../signer/signer.js";

interface FinalizeArgs {
  stage: string;
  force: boolean;
  yes: boolean;
  journalDir?: string;
  contract?: string;
  deploymentId?: string;
}

const action: NewTaskActionFunction<FinalizeArgs> = async (args, hre) => {
  const stage = parseStage(args.stage);
  const { connection, operator, signer, score } = await contractContext(
    hre,
    args,
  );
  announceSigner(consoleOutput, operator);
  const network = connection.networkName;
  // Only the open stage can be finalized: any other stage is either done
  // already (reported as such) or refused by the preflight, with no question
  // asked about a stage that will not be sent.
  if ((await score.openStage()) === stage) {
    await preflight(score, operator.hex, stage, network);
    await requireStageEnded(
      network,
      connection.networkConfig,
      stage,
      args.force,
      consoleOutput,
    );
    if (!args.yes && process.stdin.isTTY === true) {
      const contract = await score.getAddress();
      const answer = await hre.interruptions.requestInput(
        "vip",
        `Finalize stage ${stage} of ${contract} on network "${network}"? ` +
          "This cannot be undone: its scores are then fixed for good (y/N)",
      );
      if (!/^y(es)?$/i.test(answer.trim()))
        throw new VipError(ERRORS.AUTOPILOT.PASSES.FINALIZE_DECLINED, {
          stage,
        });
    }
  }
  await runFinalize(
    score,
    signer,
    stage,
    {
      journalDir: taskFolder(hre.config.paths.root, "journal", args.journalDir),
      network,
    },
    consoleOutput,
  );
};

export default action;
