import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import {
  dataDirOption,
  policyMemoryOption,
  policyTimeoutOption,
  required,
  requiredStagePolicy as policy,
  scoringStageOption,
  stageNumberOption,
  windowOption,
} from "../../cli/options.js";

const out = required(
  "out",
  "the folder the CSV and its manifest are written to",
);

export default task(
  "scores:compute",
  "Compute a stage's scores under the policy in force for it: stage-N.final.csv " +
    "once the window has closed, else stage-N.csv, with its manifest; or, with " +
    "--window, a trial's window-<start>-<end>.csv",
)
  .addOption(policy.option)
  .addOption(scoringStageOption)
  .addOption(windowOption)
  .addOption(stageNumberOption)
  .addOption(out.option)
  .addOption(dataDirOption())
  .addOption(policyTimeoutOption)
  .addOption(policyMemoryOption)
  .setAction(lazyAction(() => import("./action.js"), [policy, out]))
  .build();
