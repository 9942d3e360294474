import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import { required } from "../../cli/options.js";

const dir = required(
  "dir",
  "the entry's folder: <registry>/<mainnets|testnets|devnets>/<chain_name>",
);

export default task(
  "registry:check",
  "Validate a registry entry on files alone; every failing field is named",
)
  .addOption(dir.option)
  .setAction(lazyAction(() => import("./action.js"), [dir]))
  .build();
