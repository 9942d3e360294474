import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { vipUrl } from "../../config/settings.js";
import { connect } from "../../network/connect.js";
import { consoleOutput } from "../../output.js";
import { runVersion } from "./run.js";

const action: NewTaskActionFunction = async (_args, hre) => {
  const connection = await connect(hre);
  await runVersion(await vipUrl(connection.networkName, connection.networkConfig, "rollupRpcUrl"), consoleOutput);
};

export default action;
