import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";

export default task(
  "chain-id",
  "Print the rollup's EVM chain id and check it against the config and the registry rule",
)
  .setAction(lazyAction(() => import("./action.js")))
  .build();
