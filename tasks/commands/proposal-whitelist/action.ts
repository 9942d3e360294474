import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { ignitionPath } from "../../config/package-files.js";
import { vipModuleAddress, vipUrl } from "../../config/settings.js";
import { locateScoreContract } from "../../contract/locate.js";
import { connect } from "../../network/connect.js";
import { consoleOutput } from "../../output.js";
import { runWhitelistProposal, type WhitelistOptions } from "./run.js";

interface ProposalArgs extends Omit<WhitelistOptions, "force"> {
  force: boolean;
  contract?: string;
  deploymentId?: string;
}

const action: NewTaskActionFunction<ProposalArgs> = async (args, hre) => {
  const connection = await connect(hre);
  const context = {
    l1RestUrl: await vipUrl(
      connection.networkName,
      connection.networkConfig,
      "l1RestUrl",
    ),
    rollupRestUrl: await vipUrl(
      connection.networkName,
      connection.networkConfig,
      "rollupRestUrl",
    ),
    vipModuleAddress: await vipModuleAddress(
      connection.networkName,
      connection.networkConfig,
    ),
    network: connection.networkName,
    score: await locateScoreContract(
      connection,
      {
        contract: args.contract,
        deploymentId: args.deploymentId,
        ignitionPath: ignitionPath(hre),
      },
      connection.ethers.provider,
    ),
  };
  await runWhitelistProposal(args, context, consoleOutput);
};

export default action;
