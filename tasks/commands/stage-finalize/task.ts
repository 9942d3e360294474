import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import {
  contractOption,
  deploymentIdOption,
  journalDirOption,
  requiredStage,
} from "../../cli/options.js";

export default task(
  "stage:finalize",
  "Finalize the open stage once it has ended on the base chain, which opens the next one; cannot be undone",
)
  .addOption(requiredStage.option)
  .addFlag({
    name: "force",
    description:
      "Finalize although the stage has not ended on the base chain's clock (its scores can then never change)",
  })
  .addFlag({
    name: "yes",
    description:
      "Do not ask for confirmation on a terminal (never asked when standard input is not a terminal)",
  })
  .addOption(journalDirOption())
  .addOption(contractOption)
  .addOption(deploymentIdOption)
  .setAction(lazyAction(() => import("./action.js"), [requiredStage]))
  .build();
