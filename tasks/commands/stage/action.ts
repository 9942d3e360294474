import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { ignitionPath } from "../../config/package-files.js";
import { baseChain } from "../../config/settings.js";
import { findScoreContract } from "../../contract/locate.js";
import { connectReadOnly } from "../../network/connect.js";
import { consoleOutput } from "../../output.js";
import { runStage } from "./run.js";

interface StageArgs {
  contract?: string;
  deploymentId?: string;
}

const action: NewTaskActionFunction<StageArgs> = async (args, hre) => {
  const connection = await connectReadOnly(hre);
  const { restUrl, moduleAddress } = await baseChain(
    connection.networkName,
    connection.networkConfig,
  );
  // Without --contract, a network with no deployment yet is reported, not
  // refused.
  const score = await findScoreContract(
    connection,
    { ...args, ignitionPath: ignitionPath(hre) },
    connection.ethers.provider,
  );
  await runStage(
    restUrl,
    moduleAddress,
    score,
    connection.networkName,
    consoleOutput,
  );
};

export default action;
