import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import {
  contractOption,
  dataDirOption,
  deploymentIdOption,
  policyMemoryOption,
  policyTimeoutOption,
  required,
  requiredStagePolicy,
  scoringStageOption,
  stageNumberOption,
  windowOption,
} from "../../cli/options.js";

const address = required("address", "the 0x address to explain");

export default task(
  "scores:explain",
  "Explain one address's score in a stage: its score, rank and share under the " +
    "policy, what the contract holds, and every log of the policy's sources naming it",
)
  .addOption(requiredStagePolicy.option)
  .addOption(scoringStageOption)
  .addOption(windowOption)
  .addOption(stageNumberOption)
  .addOption(address.option)
  .addOption(dataDirOption())
  .addOption(contractOption)
  .addOption(deploymentIdOption)
  .addOption(policyTimeoutOption)
  .addOption(policyMemoryOption)
  .addFlag({
    name: "json",
    description: "Print the explanation as one JSON document",
  })
  .addFlag({
    name: "all",
    description:
      "List every earlier row instead of a summary of a long history",
  })
  .setAction(
    lazyAction(() => import("./action.js"), [requiredStagePolicy, address]),
  )
  .build();
