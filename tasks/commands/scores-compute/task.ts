import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import {
  dataDirOption,
  policyMemoryOption,
  policyTimeoutOption,
  required,
  requiredStage,
  requiredStagePolicy as policy,
} from "../../cli/options.js";

const out = required(
  "out",
  "the folder the CSV and stage-N.manifest.json are written to",
);

export default task(
  "scores:compute",
  "Compute a stage's scores under the policy in force for it: stage-N.final.csv " +
    "once the window has closed, else stage-N.csv, with its manifest",
)
  .addOption(policy.option)
  .addOption(requiredStage.option)
  .addOption(out.option)
  .addOption(dataDirOption())
  .addOption(policyTimeoutOption)
  .addOption(policyMemoryOption)
  .setAction(
    lazyAction(() => import("./action.js"), [requiredStage, policy, out]),
  )
  .build();
