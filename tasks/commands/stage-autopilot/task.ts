import { task } from "hardhat/config";
import { ArgumentType } from "hardhat/types/arguments";

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

const scoresDir = required(
  "scoresDir",
  "the folder with stage-<N>.csv (live scores, optional) and stage-<N>.final.csv " +
    "(final scores); with --policy, the autopilot writes them there",
);

export default task(
  "stage:autopilot",
  "Push each stage's scores and finalize it right after it ends on the base chain, every stage, unattended",
)
  .addOption(scoresDir.option)
  .addOption(
    textOption(
      "policy",
      "A scoring policy file (.sql) or folder: compute each stage's files from the " +
        "rollup's activity (without it, read the files a scoring job writes)",
    ),
  )
  .addOption({
    name: "computeInterval",
    description:
      "With --policy: seconds between computations of a running stage's live scores",
    type: ArgumentType.STRING,
    defaultValue: "600",
  })
  .addOption(dataDirOption("With --policy: "))
  .addFlag({
    name: "once",
    description:
      "Do what is due now and exit: 0 when nothing due is left undone (for cron or a systemd timer)",
  })
  .addOption({
    name: "pollInterval",
    description: "Seconds between polls (sooner when a stage is about to end)",
    type: ArgumentType.STRING,
    defaultValue: "60",
  })
  .addOption(
    textOption(
      "standbyAfter",
      "Run as a standby on a second host: act on a stage only once it is this many seconds " +
        "past its end on the base chain's clock and still not finalized (its own key on the " +
        "allow list, its own --data-dir and --journal-dir); without it, the host is the primary",
    ),
  )
  .addOption({
    name: "grace",
    description:
      "Seconds after a stage's end by which it must be finalized: alerts escalate at half of it",
    type: ArgumentType.STRING,
    defaultValue: "3600",
  })
  .addOption(
    textOption(
      "webhook",
      "A URL that receives every alert as a JSON POST {level, stage, text, at} (default: VIP_ALERT_WEBHOOK)",
    ),
  )
  .addOption(
    textOption(
      "statusFile",
      "The JSON file rewritten on every poll (default: vip-journal/autopilot/status.json)",
    ),
  )
  .addOption(
    textOption(
      "listen",
      "Serve /healthz and /metrics (Prometheus) on a port, or host:port (a port alone binds 127.0.0.1)",
    ),
  )
  .addOption(
    textOption(
      "reportDir",
      "Keep the stages' static report (as scores:report writes it) in this folder, " +
        "rebuilt whenever a score file changes or a stage is finalized",
    ),
  )
  .addOption(journalDirOption(" and the autopilot's lock"))
  .addOption(contractOption)
  .addOption(deploymentIdOption)
  .addOption(policyTimeoutOption)
  .addOption(policyMemoryOption)
  .setAction(lazyAction(() => import("./action.js"), [scoresDir]))
  .build();
