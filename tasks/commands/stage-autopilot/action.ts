import type { NewTaskActionFunction } from "hardhat/types/tasks";

import type { AutopilotArgs } from "../../autopilot/settings.js";
import { startAutopilot } from "../../autopilot/start.js";

const action: NewTaskActionFunction<AutopilotArgs> = async (args, hre) => {
  await startAutopilot(hre, args);
};

export default action;
