import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import { journalDirOption, required, textOption } from "../../cli/options.js";

const tx = required("tx", "the source transaction's hash");

const chain = required("chain", "the chain id the transaction was sent on");

export default task(
  "bridge:status",
  "Follow a transfer to its end by its source transaction (tracking it if it never was)",
)
  .addOption(tx.option)
  .addOption(chain.option)
  .addOption(journalDirOption())
  .addOption(
    textOption(
      "pollInterval",
      "Poll every this many seconds (default: paced by the route's estimated duration)",
    ),
  )
  .addOption(textOption("timeout", "Stop following after this many seconds"))
  .setAction(lazyAction(() => import("./action.js"), [tx, chain]))
  .build();
