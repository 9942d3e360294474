import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import {
  policyMemoryOption,
  policyTimeoutOption,
  requiredStagePolicy as policy,
} from "../../cli/options.js";

export default task(
  "scores:check",
  "Check policies without a node, a base chain or an index: the header, the admission " +
    "and the exactness checks a stage's run does; prints each policy's stages, sources " +
    "and each source's columns with their SQL types (for a policy repository's CI)",
)
  .addOption(policy.option)
  .addOption(policyTimeoutOption)
  .addOption(policyMemoryOption)
  .setAction(lazyAction(() => import("./action.js"), [policy]))
  .build();
