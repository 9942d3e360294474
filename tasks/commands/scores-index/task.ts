import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import { dataDirOption, required } from "../../cli/options.js";

const policy = required(
  "policy",
  "a policy file (.sql) or a folder of them (every source of every policy is indexed)",
);

export default task(
  "scores:index",
  "Index the logs a scoring policy's sources declare, up to the rollup's head, into vip-data/ (resumable)",
)
  .addOption(policy.option)
  .addOption(dataDirOption())
  .addFlag({
    name: "rebuild",
    description:
      "Move the chain's index aside (to chain-<id>.format-<n>.duckdb, never deleted) and index " +
      "afresh from each source's from-block: for an index of an earlier format",
  })
  .setAction(lazyAction(() => import("./action.js"), [policy]))
  .build();
