import type { HardhatPlugin } from "hardhat/types/plugins";

import { definePlugin } from "hardhat/plugins";

/**
 * The VIP scoring plugin: operator tasks for a rollup's scoring contract.
 * Tasks are declared here and their actions imported lazily, as in Hardhat's own plugins.
 */
const vipScorePlugin: HardhatPlugin = definePlugin({
  id: "hardhat-vip-score",
  tasks: [],
});

export default vipScorePlugin;
