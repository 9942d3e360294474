import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { vipUrl } from "../../config/settings.js";
import { selectedNetwork } from "../../network/connect.js";
import { runVersion } from "../../node/version-check.js";
import { consoleOutput } from "../../output.js";

const action: NewTaskActionFunction = async (_args, hre) => {
  // Only the rollup's CometBFT RPC is asked: no EVM connection, no key.
  const network = selectedNetwork(hre);
  await runVersion(
    await vipUrl(network.name, network.config, "rollupRpcUrl"),
    consoleOutput,
  );
};

export default action;
