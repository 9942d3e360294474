import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import {
  contractOption,
  deploymentIdOption,
  journalDirOption,
  required,
} from "../../cli/options.js";

const address = (change: string) =>
  required("address", `the 0x… address to ${change}`);

/** allowlist:add and allowlist:remove: one action, the change its argument. */
export const allowlistAddTask = task(
  "allowlist:add",
  "Allow an address to write scores and finalize stages (signed by an address already allowed)",
)
  .addOption(address("allow").option)
  .addOption(journalDirOption())
  .addOption(contractOption)
  .addOption(deploymentIdOption)
  .setAction(lazyAction(() => import("./action.js"), [address("allow")], "add"))
  .build();

export const allowlistRemoveTask = task(
  "allowlist:remove",
  "Remove an address from the allow list (the contract keeps at least one)",
)
  .addOption(address("remove").option)
  .addOption(journalDirOption())
  .addOption(contractOption)
  .addOption(deploymentIdOption)
  .setAction(
    lazyAction(() => import("./action.js"), [address("remove")], "remove"),
  )
  .build();
