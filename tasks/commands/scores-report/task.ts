import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import {
  contractOption,
  deploymentIdOption,
  required,
  textOption,
} from "../../cli/options.js";

const scoresDir = required(
  "scoresDir",
  "the folder of the stages' score files and manifests (stage-N.csv, stage-N.final.csv, " +
    "stage-N.manifest.json)",
);

const out = required(
  "out",
  "the folder the site is written to (replaced whole; a new folder, or an earlier report)",
);

export default task(
  "scores:report",
  "Build a static site of the stages' scores for the challenge period: a page per stage " +
    "with its policy, distribution, top addresses, changes and an address lookup",
)
  .addOption(scoresDir.option)
  .addOption(out.option)
  .addOption(
    textOption(
      "policy",
      "The policy file the manifests name, or its folder (default: --scores-dir)",
    ),
  )
  .addOption(contractOption)
  .addOption(deploymentIdOption)
  .setAction(lazyAction(() => import("./action.js"), [scoresDir, out]))
  .build();
