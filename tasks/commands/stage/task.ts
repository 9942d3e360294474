import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import { contractOption, deploymentIdOption } from "../../cli/options.js";

export default task(
  "stage",
  "Print the VIP program's current stage on the base chain beside the contract's open stage",
)
  .addOption(contractOption)
  .addOption(deploymentIdOption)
  .setAction(lazyAction(() => import("./action.js")))
  .build();
