import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import {
  contractOption,
  dataDirOption,
  deploymentIdOption,
  policyMemoryOption,
  policyTimeoutOption,
  required,
  scoringStageOption,
  stageNumberOption,
  textOption,
  windowOption,
} from "../../cli/options.js";

const policy = required("policy", "the published policy file (.sql) or folder");

export default task(
  "scores:audit",
  "Recompute a stage from the published policy and compare with the " +
    "contract (and a manifest); exit 1 on any difference",
)
  .addOption(policy.option)
  .addOption(scoringStageOption)
  .addOption(windowOption)
  .addOption(stageNumberOption)
  .addOption(
    textOption(
      "manifest",
      "a published stage-N.manifest.json (or a trial's window-…manifest.json) to compare as well",
    ),
  )
  .addOption(contractOption)
  .addOption(deploymentIdOption)
  .addOption(dataDirOption())
  .addOption(policyTimeoutOption)
  .addOption(policyMemoryOption)
  .setAction(lazyAction(() => import("./action.js"), [policy]))
  .build();
