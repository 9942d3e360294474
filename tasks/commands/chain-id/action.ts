import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { optionalVipUrl } from "../../config/settings.js";
import { connectReadOnly } from "../../network/connect.js";
import { runChainId } from "../../node/chain-id.js";
import { consoleOutput } from "../../output.js";

const action: NewTaskActionFunction = async (_args, hre) => {
  const connection = await connectReadOnly(hre, { anyNetwork: true });
  const rollupRpcUrl = await optionalVipUrl(
    connection.networkName,
    connection.networkConfig,
    "rollupRpcUrl",
  );
  await runChainId(connection, rollupRpcUrl, consoleOutput);
};

export default action;
