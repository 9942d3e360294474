import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";

export default task(
  "version",
  "Print the rollup's application, version, height and app hash (CometBFT abci_info)",
)
  .setAction(lazyAction(() => import("./action.js")))
  .build();
