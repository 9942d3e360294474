import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import {
  dataDirOption,
  policyMemoryOption,
  policyTimeoutOption,
  required,
  requiredStagePolicy,
  scoringStageOption,
  stageNumberOption,
  textOption,
  windowOption,
} from "../../cli/options.js";

const proposed = required(
  "with",
  "the proposed policy, a file (compared whatever its @from-stage) or a folder (picked from as --policy is)",
);

const out = textOption(
  "out",
  "A folder to write compare.html, compare.csv (every address) and both policies to (default: print only)",
);

export default task(
  "scores:compare",
  "Preview a policy change: both policies over the same blocks of a stage or a " +
    "window, with the addresses gained, lost and changed, the totals, the shares, " +
    "the largest changes and how many users fall below vesting's minimum",
)
  .addOption(requiredStagePolicy.option)
  .addOption(proposed.option)
  .addOption(scoringStageOption)
  .addOption(windowOption)
  .addOption(stageNumberOption)
  .addOption(out)
  .addOption(dataDirOption())
  .addOption(policyTimeoutOption)
  .addOption(policyMemoryOption)
  .setAction(
    lazyAction(() => import("./action.js"), [requiredStagePolicy, proposed]),
  )
  .build();
