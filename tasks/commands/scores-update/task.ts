import { task } from "hardhat/config";
import { ArgumentType } from "hardhat/types/arguments";

import { lazyAction } from "../../cli/lazy-action.js";
import {
  contractOption,
  deploymentIdOption,
  journalDirOption,
  required,
  requiredStage,
} from "../../cli/options.js";

const file = required(
  "file",
  "the score file, CSV with the header address,score, or a JSON array of {address, score}",
);

export default task(
  "scores:update",
  "Write a score file to the open stage: validated, batched, pipelined, journalled, proved on chain",
)
  .addOption(requiredStage.option)
  .addOption(file.option)
  .addFlag({
    name: "dryRun",
    description: "Validate and plan the batches without sending anything",
  })
  .addFlag({
    name: "skipUnchanged",
    description: "Read the stage first and send only the scores that differ",
  })
  .addFlag({
    name: "fullReadBack",
    description:
      "After the push, read every score back from the contract (default: prove the push by " +
      "its receipts' UpdateScore events and the stage's count and total, reading back only " +
      "the scores no event of this run proved)",
  })
  .addFlag({
    name: "replace",
    description:
      "Push this file although the stage's journal records another one",
  })
  .addOption({
    name: "maxInFlight",
    description:
      "Batches sent ahead of their receipts (1: send and wait; 0: adaptive, " +
      "from two blocks' worth, growing while blocks are not full)",
    type: ArgumentType.INT,
    defaultValue: 0,
  })
  .addOption({
    name: "batchSize",
    description:
      "At most this many addresses per transaction (0: as many as the gas limits allow)",
    type: ArgumentType.INT,
    defaultValue: 0,
  })
  .addOption(journalDirOption())
  .addOption(contractOption)
  .addOption(deploymentIdOption)
  .setAction(lazyAction(() => import("./action.js"), [requiredStage, file]))
  .build();
