import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import {
  contractOption,
  deploymentIdOption,
  required,
  textOption,
} from "../../cli/options.js";

const operator = required(
  "operator",
  "the operator's address, 0x… or init1… (receives the operator rewards)",
);

const commissionMaxRate = required(
  "commissionMaxRate",
  "the operator's maximum commission rate, a decimal in [0, 1]",
);

const commissionMaxChangeRate = required(
  "commissionMaxChangeRate",
  "the most the rate may change at once, a decimal in [0, 1]",
);

const commissionRate = required(
  "commissionRate",
  "the operator's commission rate, a decimal in [0, max rate]",
);

const metadata = required(
  "metadata",
  "the https URL of the proposal's forum post",
);

const title = required("title", "the proposal's title");

const summary = required("summary", "the proposal's summary");

const out = required("out", "the proposal file to write, e.g. proposal.json");

export default task(
  "proposal:whitelist",
  "Write the VIP whitelist proposal (MsgGovExecute of vip::register), checked against the rollup and the base chain",
)
  .addOption(operator.option)
  .addOption(commissionMaxRate.option)
  .addOption(commissionMaxChangeRate.option)
  .addOption(commissionRate.option)
  .addOption(metadata.option)
  .addOption(title.option)
  .addOption(summary.option)
  .addOption(
    textOption(
      "policy",
      "the scoring policy file (.sql) the rollup publishes: its name and sha256 are added to the summary",
    ),
  )
  .addOption(out.option)
  .addOption(
    textOption(
      "deposit",
      "The deposit, e.g. 100000000uinit (default: the base chain's gov min_deposit)",
    ),
  )
  .addFlag({
    name: "force",
    description: "Overwrite --out, and write the file for a testnet rollup",
  })
  .addOption(contractOption)
  .addOption(deploymentIdOption)
  .setAction(
    lazyAction(
      () => import("./action.js"),
      [
        operator,
        commissionMaxRate,
        commissionMaxChangeRate,
        commissionRate,
        metadata,
        title,
        summary,
        out,
      ],
    ),
  )
  .build();
