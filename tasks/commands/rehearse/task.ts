import { task } from "hardhat/config";
import { ArgumentType } from "hardhat/types/arguments";

import { lazyAction } from "../../cli/lazy-action.js";

export default task(
  "rehearse",
  "Rehearse the whole operator flow on the in-process network with local stand-ins (no configuration)",
)
  .addOption({
    name: "file",
    description: "The score file to push (default: scripts/sample-scores.csv)",
    type: ArgumentType.STRING_WITHOUT_DEFAULT,
    defaultValue: undefined,
  })
  .setAction(lazyAction(() => import("./action.js")))
  .build();
