import path from "node:path";

import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { describeHosts } from "../../autopilot/recent-stages.js";
import { ignitionPath } from "../../config/package-files.js";
import { baseChain, taskFolder } from "../../config/settings.js";
import { findScoreContract } from "../../contract/locate.js";
import { connectReadOnly } from "../../network/connect.js";
import { consoleOutput } from "../../output.js";
import { runStage } from "../../program/stage-report.js";

interface StageArgs {
  contract?: string;
  deploymentId?: string;
  statusFile?: string;
  journalDir?: string;
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
  const statusFile = path.resolve(
    args.statusFile ??
      path.join(
        taskFolder(hre.config.paths.root, "journal", args.journalDir),
        "autopilot",
        "status.json",
      ),
  );
  await runStage(
    restUrl,
    moduleAddress,
    score,
    connection.networkName,
    consoleOutput,
    score === undefined
      ? undefined
      : (open) =>
          describeHosts(
            score,
            open,
            { restUrl, moduleAddress },
            statusFile,
            consoleOutput,
          ),
  );
};

export default action;
