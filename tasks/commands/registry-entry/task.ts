import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import { required } from "../../cli/options.js";

const registry = required(
  "registry",
  "a checkout of initia-labs/initia-registry",
);

const input = required(
  "input",
  "the entry's input file: what no query answers (see scripts/examples/registry-input.json)",
);

export default task(
  "registry:entry",
  "Write the rollup's entry (chain.json, assetlist.json, profile) into a registry checkout, validated first",
)
  .addOption(registry.option)
  .addOption(input.option)
  .addFlag({ name: "force", description: "Overwrite an existing entry" })
  .setAction(lazyAction(() => import("./action.js"), [registry, input]))
  .build();
