import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import {
  contractOption,
  deploymentIdOption,
  required,
  requiredStage,
} from "../../cli/options.js";

const file = required("file", "the score file the stage should hold");

export default task(
  "scores:verify",
  "Read every score of a stage back and compare it with a score file",
)
  .addOption(requiredStage.option)
  .addOption(file.option)
  .addOption(contractOption)
  .addOption(deploymentIdOption)
  .setAction(lazyAction(() => import("./action.js"), [requiredStage, file]))
  .build();
