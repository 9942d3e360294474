import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { ignitionPath } from "../../config/package-files.js";
import { baseChain, vipUrl } from "../../config/settings.js";
import { locateScoreContract } from "../../contract/locate.js";
import { connect } from "../../network/connect.js";
import { consoleOutput } from "../../output.js";
import {
  runWhitelistProposal,
  type WhitelistOptions,
} from "../../proposal/write-whitelist-proposal.js";

interface ProposalArgs extends Omit<WhitelistOptions, "force"> {
  force: boolean;
  contract?: string;
  deploymentId?: string;
}

const action: NewTaskActionFunction<ProposalArgs> = async (args, hre) => {
  const connection = await connect(hre);
  const base = await baseChain(
    connection.networkName,
    connection.networkConfig,
  );
  const context = {
    l1RestUrl: base.restUrl,
    rollupRestUrl: await vipUrl(
      connection.networkName,
      connection.networkConfig,
      "rollupRestUrl",
    ),
    vipModuleAddress: base.moduleAddress,
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
