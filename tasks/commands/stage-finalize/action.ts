import path from "node:path";

import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { contractContext } from "../../contract/context.js";
import { parseStage } from "../../contract/preflight.js";
import { consoleOutput } from "../../output.js";
import { announceSigner } from "../../signer/signer.js";
import { runFinalize } from "./run.js";

interface FinalizeArgs {
  stage?: string;
  journalDir?: string;
  contract?: string;
  deploymentId?: string;
}

const action: NewTaskActionFunction<FinalizeArgs> = async (args, hre) => {
  const stage = parseStage(args.stage);
  const { operator, signer, score } = await contractContext(hre, args);
  announceSigner(consoleOutput, operator);
  await runFinalize(
    score,
    signer,
    stage,
    args.journalDir ?? path.join(hre.config.paths.root, "vip-journal"),
    consoleOutput,
  );
};

export default action;
