import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import {
  contractOption,
  deploymentIdOption,
  journalDirOption,
  textOption,
} from "../../cli/options.js";

export default task(
  "stage",
  "Print the VIP program's current stage beside the contract's open stage, who did the last stages, and this host's autopilot",
)
  .addOption(contractOption)
  .addOption(deploymentIdOption)
  .addOption(
    textOption(
      "statusFile",
      "The autopilot's status file on this host, for its role and the other signer's last write " +
        "(default: vip-journal/autopilot/status.json)",
    ),
  )
  .addOption(journalDirOption(" and the autopilot's status file"))
  .setAction(lazyAction(() => import("./action.js")))
  .build();
