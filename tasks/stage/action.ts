import type { NewTaskActionFunction } from "hardhat/types/tasks";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { vipModuleAddress, vipUrl } from "../config/settings.js";
import { deployedAddress, deploymentDir } from "../contract/deployment.js";
import { locateScoreContract } from "../contract/locate.js";
import { connect } from "../network/connect.js";
import { consoleOutput } from "../output.js";
import { runStage } from "./run.js";

interface StageArgs {
  contract?: string;
  deploymentId?: string;
}

const action: NewTaskActionFunction<StageArgs> = async (args, hre) => {
  const connection = await connect(hre);
  const restUrl = await vipUrl(connection.networkName, connection.networkConfig, "l1RestUrl");
  const moduleAddress = await vipModuleAddress(connection.networkName, connection.networkConfig);
  const locate = { ...args, ignitionPath: hre.config.paths.ignition };
  let score: VipScore | undefined;
  // Without --contract, a network with no deployment yet is reported, not refused.
  const chainId = (await connection.ethers.provider.getNetwork()).chainId;
  if (args.contract !== undefined || (await deployedAddress(deploymentDir(locate.ignitionPath, chainId, args.deploymentId))) !== undefined) {
    score = await locateScoreContract(connection, locate, connection.ethers.provider);
  }
  await runStage(restUrl, moduleAddress, score, consoleOutput);
};

export default action;
