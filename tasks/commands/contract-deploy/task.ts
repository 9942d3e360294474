import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import { deploymentIdOption, textOption } from "../../cli/options.js";

export default task(
  "contract:deploy",
  "Deploy VipScore, starting at --start-stage, START_STAGE or the base chain's " +
    "current stage (resumes an interrupted deployment)",
)
  .addOption(
    textOption(
      "startStage",
      "The stage the contract opens at (default: START_STAGE, else the base chain's current VIP stage)",
    ),
  )
  .addOption(deploymentIdOption)
  .setAction(lazyAction(() => import("./action.js")))
  .build();
