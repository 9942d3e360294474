import { definePlugin } from "hardhat/plugins";
import type { HardhatPlugin } from "hardhat/types/plugins";

import "./type-extensions.js";
// The `vip` network settings, for projects that build their config in code.
export type {
  VipNetworkConfig,
  VipNetworkUserConfig,
} from "./type-extensions.js";
import accountsTask from "./commands/accounts/task.js";
import {
  allowlistAddTask,
  allowlistRemoveTask,
} from "./commands/allowlist/task.js";
import bridgeRouteTask from "./commands/bridge-route/task.js";
import bridgeStatusTask from "./commands/bridge-status/task.js";
import bridgeTransferTask from "./commands/bridge-transfer/task.js";
import chainIdTask from "./commands/chain-id/task.js";
import contractDeployTask from "./commands/contract-deploy/task.js";
import proposalWhitelistTask from "./commands/proposal-whitelist/task.js";
import registryCheckTask from "./commands/registry-check/task.js";
import registryEntryTask from "./commands/registry-entry/task.js";
import rehearseTask from "./commands/rehearse/task.js";
import scoresAuditTask from "./commands/scores-audit/task.js";
import scoresCheckTask from "./commands/scores-check/task.js";
import scoresCompareTask from "./commands/scores-compare/task.js";
import scoresComputeTask from "./commands/scores-compute/task.js";
import scoresExplainTask from "./commands/scores-explain/task.js";
import scoresIndexTask from "./commands/scores-index/task.js";
import scoresNewPolicyTask from "./commands/scores-new-policy/task.js";
import scoresReportTask from "./commands/scores-report/task.js";
import scoresUpdateTask from "./commands/scores-update/task.js";
import scoresVerifyTask from "./commands/scores-verify/task.js";
import stageTask from "./commands/stage/task.js";
import stageAutopilotTask from "./commands/stage-autopilot/task.js";
import stageCorrectTask from "./commands/stage-correct/task.js";
import stageFinalizeTask from "./commands/stage-finalize/task.js";
import versionTask from "./commands/version/task.js";
import { PLUGIN_ID } from "./errors.js";

/**
 * The VIP scoring plugin: operator tasks for a rollup's scoring contract. It
 * only assembles: each task is declared beside its action
 * (`commands/<task>/task.ts`), and its action is imported when it runs, as in
 * Hardhat's own plugins, so `npx hardhat --help` loads none of them.
 */
const vipScorePlugin: HardhatPlugin = definePlugin({
  id: PLUGIN_ID,
  npmPackage: PLUGIN_ID,
  // What the tasks build on: `connection.ethers` (signers, contracts) and the
  // keystore (keys by name). Ignition is not among them: its engine is a plain
  // dependency, so a project on viem keeps its own Ignition extension.
  dependencies: () => [
    import("@nomicfoundation/hardhat-ethers"),
    import("@nomicfoundation/hardhat-keystore"),
  ],
  hookHandlers: {
    config: () => import("./hook-handlers/config.js"),
    network: () => import("./hook-handlers/network.js"),
  },
  tasks: [
    versionTask,
    chainIdTask,
    stageTask,
    contractDeployTask,
    allowlistAddTask,
    allowlistRemoveTask,
    scoresUpdateTask,
    scoresIndexTask,
    scoresCheckTask,
    scoresComputeTask,
    scoresCompareTask,
    scoresAuditTask,
    scoresVerifyTask,
    scoresReportTask,
    scoresExplainTask,
    scoresNewPolicyTask,
    stageFinalizeTask,
    stageCorrectTask,
    stageAutopilotTask,
    rehearseTask,
    accountsTask,
    registryEntryTask,
    registryCheckTask,
    proposalWhitelistTask,
    bridgeRouteTask,
    bridgeTransferTask,
    bridgeStatusTask,
  ],
});

export default vipScorePlugin;
