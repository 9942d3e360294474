import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import {
  contractOption,
  dataDirOption,
  deploymentIdOption,
  journalDirOption,
  policyMemoryOption,
  policyTimeoutOption,
  required,
  textOption,
} from "../../cli/options.js";

const stage = required(
  "stage",
  "the finalized stage whose scores are wrong (every later finalized stage is replayed with it)",
);
const scoresDir = required(
  "scoresDir",
  "the folder with the corrected stage-<N>.final.csv and every later finalized stage's " +
    "final file (with --policy, computed and written there)",
);

export default task(
  "stage:correct",
  "Correct a wrongly finalized stage: a new contract with it and every later stage replayed, " +
    "and the governance proposal and forum post that point the program at it, inside the challenge window",
)
  .addOption(stage.option)
  .addOption(scoresDir.option)
  .addOption(
    textOption(
      "policy",
      "A scoring policy file (.sql) or folder: compute the corrected final files as scores:compute does",
    ),
  )
  .addFlag({
    name: "dryRun",
    description: "Print the plan only: nothing is sent or written",
  })
  .addFlag({
    name: "yes",
    description:
      "Do not ask for confirmation on a terminal (never asked when standard input is not a terminal)",
  })
  .addFlag({
    name: "allowEmpty",
    description:
      "Accept a corrected final file without scores for a stage that had scores",
  })
  .addOption(
    textOption(
      "out",
      "Where the proposal, the forum post and the changed addresses are written " +
        "(default: vip-correction/stage-<N>/ in the project)",
    ),
  )
  .addOption(
    textOption(
      "newDeploymentId",
      "The new contract's Ignition deployment id (default: chain-<chainId>-from-stage-<N>)",
    ),
  )
  .addOption(
    textOption(
      "forumUrl",
      "The forum post's URL, the proposal's metadata (set it once the post is published)",
    ),
  )
  .addOption(
    textOption(
      "reason",
      "What was wrong, in a sentence, for the forum post (default: a plain sentence)",
    ),
  )
  .addOption(dataDirOption("With --policy: "))
  .addOption(policyTimeoutOption)
  .addOption(policyMemoryOption)
  .addOption(journalDirOption())
  .addOption(contractOption)
  .addOption(deploymentIdOption)
  .setAction(lazyAction(() => import("./action.js"), [stage, scoresDir]))
  .build();
