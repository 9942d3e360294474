import type { HardhatPlugin } from "hardhat/types/plugins";

import { task } from "hardhat/config";
import { definePlugin } from "hardhat/plugins";
import { ArgumentType } from "hardhat/types/arguments";

import "./type-extensions.js";
// The `vip` network settings, for projects that build their config in code.
export type {
  VipNetworkConfig,
  VipNetworkUserConfig,
} from "./type-extensions.js";
import { PLUGIN_ID } from "./errors.js";

const contractOption = {
  name: "contract",
  description:
    "The VipScore address (default: the address recorded by `contract:deploy` for this chain)",
  type: ArgumentType.STRING_WITHOUT_DEFAULT,
  defaultValue: undefined,
} as const;

const deploymentIdOption = {
  name: "deploymentId",
  description: "The Ignition deployment id (default: chain-<chainId>)",
  type: ArgumentType.STRING_WITHOUT_DEFAULT,
  defaultValue: undefined,
} as const;

const stageOption = {
  name: "stage",
  description:
    "Required: the stage number, the contract's open stage (see `npx hardhat stage --network <name>`)",
  type: ArgumentType.STRING_WITHOUT_DEFAULT,
  defaultValue: undefined,
} as const;

const policyTimeoutOption = {
  name: "policyTimeout",
  description:
    "Seconds the scoring policy may run, both runs together (default: the network's vip.policyTimeout, else 300)",
  type: ArgumentType.STRING_WITHOUT_DEFAULT,
  defaultValue: undefined,
} as const;

const policyMemoryOption = {
  name: "policyMemory",
  description:
    "MB of memory the scoring policy's engine may hold before it spills to temporary files (default: the network's vip.policyMemory, else 2048)",
  type: ArgumentType.STRING_WITHOUT_DEFAULT,
  defaultValue: undefined,
} as const;

const fileOption = {
  name: "file",
  description:
    "Required: the score file, CSV with the header address,score, or a JSON array of {address, score}",
  type: ArgumentType.STRING_WITHOUT_DEFAULT,
  defaultValue: undefined,
} as const;

/** An optional text option. */
function textOption(name: string, description: string) {
  return {
    name,
    description,
    type: ArgumentType.STRING_WITHOUT_DEFAULT,
    defaultValue: undefined,
  } as const;
}

/**
 * A text option the task cannot run without. Hardhat's options all have
 * defaults and its usage line brackets them, so `--help` says "Required" in the
 * description, and the action refuses a missing one in one line naming it.
 */
function requiredTextOption(name: string, description: string) {
  return textOption(name, `Required: ${description}`);
}

/**
 * The VIP scoring plugin: operator tasks for a rollup's scoring contract. Tasks
 * are declared here and their actions imported lazily, as in Hardhat's own
 * plugins, so `npx hardhat --help` loads none of them.
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
    task(
      "version",
      "Print the rollup's application, version, height and app hash (CometBFT abci_info)",
    )
      .setAction(() => import("./commands/version/action.js"))
      .build(),
    task(
      "chain-id",
      "Print the rollup's EVM chain id and check it against the config and the registry rule",
    )
      .setAction(() => import("./commands/chain-id/action.js"))
      .build(),
    task(
      "stage",
      "Print the VIP program's current stage on the base chain beside the contract's open stage",
    )
      .addOption(contractOption)
      .addOption(deploymentIdOption)
      .setAction(() => import("./commands/stage/action.js"))
      .build(),
    task(
      "contract:deploy",
      "Deploy VipScore, starting at --start-stage, START_STAGE or the base chain's current stage (resumes an interrupted deployment)",
    )
      .addOption(
        textOption(
          "startStage",
          "The stage the contract opens at (default: START_STAGE, else the base chain's current VIP stage)",
        ),
      )
      .addOption(deploymentIdOption)
      .setAction(() => import("./commands/contract-deploy/action.js"))
      .build(),
    task(
      "allowlist:add",
      "Allow an address to write scores and finalize stages (signed by an address already allowed)",
    )
      .addOption(requiredTextOption("address", "the 0x… address to allow"))
      .addOption(contractOption)
      .addOption(deploymentIdOption)
      .setAction(() => import("./commands/allowlist-add/action.js"))
      .build(),
    task(
      "allowlist:remove",
      "Remove an address from the allow list (the contract keeps at least one)",
    )
      .addOption(requiredTextOption("address", "the 0x… address to remove"))
      .addOption(contractOption)
      .addOption(deploymentIdOption)
      .setAction(() => import("./commands/allowlist-remove/action.js"))
      .build(),
    task(
      "scores:update",
      "Write a score file to the open stage: validated, batched, pipelined, journalled, read back",
    )
      .addOption(stageOption)
      .addOption(fileOption)
      .addFlag({
        name: "dryRun",
        description: "Validate and plan the batches without sending anything",
      })
      .addFlag({
        name: "skipUnchanged",
        description:
          "Read the stage first and send only the scores that differ",
      })
      .addFlag({
        name: "replace",
        description:
          "Push this file although the stage's journal records another one",
      })
      .addOption({
        name: "maxInFlight",
        description:
          "Batches sent ahead of their receipts (1: send and wait; 0: adaptive, from two blocks' worth, growing while blocks are not full)",
        type: ArgumentType.INT,
        defaultValue: 0,
      })
      .addOption({
        name: "batchSize",
        description:
          "At most this many addresses per transaction (0: as many as the gas limits allow)",
        type: ArgumentType.INT,
        defaultValue: 0,
      })
      .addOption({
        name: "journalDir",
        description:
          "Where journals are kept (default: vip-journal/ in the project)",
        type: ArgumentType.STRING_WITHOUT_DEFAULT,
        defaultValue: undefined,
      })
      .addOption(contractOption)
      .addOption(deploymentIdOption)
      .setAction(() => import("./commands/scores-update/action.js"))
      .build(),
    task(
      "scores:index",
      "Index the logs a scoring policy's sources declare, up to the rollup's head, into vip-data/ (resumable)",
    )
      .addOption(
        requiredTextOption(
          "policy",
          "a policy file (.sql) or a folder of them (every source of every policy is indexed)",
        ),
      )
      .addOption(
        textOption(
          "dataDir",
          "where the index is kept (default: vip-data/ in the project)",
        ),
      )
      .addFlag({
        name: "rebuild",
        description:
          "Move the chain's index aside (to chain-<id>.format-<n>.duckdb, never deleted) and index afresh from each source's from-block: for an index of an earlier format",
      })
      .setAction(() => import("./commands/scores-index/action.js"))
      .build(),
    task(
      "scores:compute",
      "Compute a stage's scores under the policy in force for it: stage-N.final.csv once the window has closed, else stage-N.csv, with its manifest",
    )
      .addOption(
        requiredTextOption(
          "policy",
          "a policy file (.sql) or a folder of them (stage N uses the highest @from-stage <= N)",
        ),
      )
      .addOption(stageOption)
      .addOption(
        requiredTextOption(
          "out",
          "the folder the CSV and stage-N.manifest.json are written to",
        ),
      )
      .addOption(
        textOption(
          "dataDir",
          "where the index is kept (default: vip-data/ in the project)",
        ),
      )
      .addOption(policyTimeoutOption)
      .addOption(policyMemoryOption)
      .setAction(() => import("./commands/scores-compute/action.js"))
      .build(),
    task(
      "scores:audit",
      "Recompute a stage from the published policy and compare with the contract (and a manifest); exit 1 on any difference",
    )
      .addOption(
        requiredTextOption(
          "policy",
          "the published policy file (.sql) or folder",
        ),
      )
      .addOption(stageOption)
      .addOption(
        textOption(
          "manifest",
          "a published stage-N.manifest.json to compare as well",
        ),
      )
      .addOption(contractOption)
      .addOption(deploymentIdOption)
      .addOption(
        textOption(
          "dataDir",
          "where the index is kept (default: vip-data/ in the project)",
        ),
      )
      .addOption(policyTimeoutOption)
      .addOption(policyMemoryOption)
      .setAction(() => import("./commands/scores-audit/action.js"))
      .build(),
    task(
      "scores:verify",
      "Read every score of a stage back and compare it with a score file",
    )
      .addOption(stageOption)
      .addOption(fileOption)
      .addOption(contractOption)
      .addOption(deploymentIdOption)
      .setAction(() => import("./commands/scores-verify/action.js"))
      .build(),
    task(
      "stage:finalize",
      "Finalize the open stage once it has ended on the base chain, which opens the next one; cannot be undone",
    )
      .addOption(stageOption)
      .addFlag({
        name: "force",
        description:
          "Finalize although the stage has not ended on the base chain's clock (its scores can then never change)",
      })
      .addFlag({
        name: "yes",
        description:
          "Do not ask for confirmation on a terminal (never asked when standard input is not a terminal)",
      })
      .addOption(
        textOption(
          "journalDir",
          "Where journals are kept (default: vip-journal/ in the project)",
        ),
      )
      .addOption(contractOption)
      .addOption(deploymentIdOption)
      .setAction(() => import("./commands/stage-finalize/action.js"))
      .build(),
    task(
      "stage:autopilot",
      "Push each stage's scores and finalize it right after it ends on the base chain, every stage, unattended",
    )
      .addOption(
        requiredTextOption(
          "scoresDir",
          "the folder with stage-<N>.csv (live scores, optional) and stage-<N>.final.csv (final scores); with --policy, the autopilot writes them there",
        ),
      )
      .addOption(
        textOption(
          "policy",
          "A scoring policy file (.sql) or folder: compute each stage's files from the rollup's activity (without it, read the files a scoring job writes)",
        ),
      )
      .addOption({
        name: "computeInterval",
        description:
          "With --policy: seconds between computations of a running stage's live scores",
        type: ArgumentType.STRING,
        defaultValue: "600",
      })
      .addOption(
        textOption(
          "dataDir",
          "With --policy: where the activity index is kept (default: vip-data/ in the project)",
        ),
      )
      .addFlag({
        name: "once",
        description:
          "Do what is due now and exit: 0 when nothing due is left undone (for cron or a systemd timer)",
      })
      .addOption({
        name: "pollInterval",
        description:
          "Seconds between polls (sooner when a stage is about to end)",
        type: ArgumentType.STRING,
        defaultValue: "60",
      })
      .addOption({
        name: "grace",
        description:
          "Seconds after a stage's end by which it must be finalized: alerts escalate at half of it",
        type: ArgumentType.STRING,
        defaultValue: "3600",
      })
      .addOption(
        textOption(
          "webhook",
          "A URL that receives every alert as a JSON POST {level, stage, text, at} (default: VIP_ALERT_WEBHOOK)",
        ),
      )
      .addOption(
        textOption(
          "statusFile",
          "The JSON file rewritten on every poll (default: vip-journal/autopilot/status.json)",
        ),
      )
      .addOption(
        textOption(
          "listen",
          "Serve /healthz and /metrics (Prometheus) on a port, or host:port (a port alone binds 127.0.0.1)",
        ),
      )
      .addOption(
        textOption(
          "journalDir",
          "Where journals and the autopilot's lock are kept (default: vip-journal/ in the project)",
        ),
      )
      .addOption(contractOption)
      .addOption(deploymentIdOption)
      .addOption(policyTimeoutOption)
      .addOption(policyMemoryOption)
      .setAction(() => import("./commands/stage-autopilot/action.js"))
      .build(),
    task(
      "rehearse",
      "Rehearse the whole operator flow on the in-process network with local stand-ins (no configuration)",
    )
      .addOption({
        name: "file",
        description:
          "The score file to push (default: scripts/sample-scores.csv)",
        type: ArgumentType.STRING_WITHOUT_DEFAULT,
        defaultValue: undefined,
      })
      .setAction(() => import("./commands/rehearse/action.js"))
      .build(),

    // --- Onboarding: accounts, the registry entry, the whitelist proposal
    // -------------------------
    task(
      "accounts",
      "Show the signing account (0x… and init1…) and its balances; or create, recover or name one",
    )
      .addFlag({
        name: "create",
        description:
          "Create a new key from fresh entropy into the keystore (its mnemonic is shown once, on a terminal)",
      })
      .addFlag({
        name: "recover",
        description:
          "Recover a key from a BIP39 mnemonic read from a hidden prompt or standard input, into the keystore",
      })
      .addOption(
        textOption(
          "ledger",
          "A Ledger account's 0x… address: shows both spellings and how to sign with it",
        ),
      )
      .addOption({
        name: "name",
        description: "The keystore entry the key goes to",
        type: ArgumentType.STRING,
        defaultValue: "PRIVATE_KEY",
      })
      .addFlag({
        name: "dev",
        description:
          "Use Hardhat's development keystore (no password) instead of the production one",
      })
      .addFlag({
        name: "force",
        description: "Overwrite an existing keystore entry",
      })
      .addOption(
        textOption(
          "operator",
          "The operator's address: says whether it is the deployer's key",
        ),
      )
      .setAction(() => import("./commands/accounts/action.js"))
      .build(),
    task(
      "registry:entry",
      "Write the rollup's entry (chain.json, assetlist.json, profile) into a registry checkout, validated first",
    )
      .addOption(
        requiredTextOption(
          "registry",
          "a checkout of initia-labs/initia-registry",
        ),
      )
      .addOption(
        requiredTextOption(
          "input",
          "the entry's input file: what no query answers (see scripts/examples/registry-input.json)",
        ),
      )
      .addFlag({ name: "force", description: "Overwrite an existing entry" })
      .setAction(() => import("./commands/registry-entry/action.js"))
      .build(),
    task(
      "registry:check",
      "Validate a registry entry on files alone; every failing field is named",
    )
      .addOption(
        requiredTextOption(
          "dir",
          "the entry's folder: <registry>/<mainnets|testnets|devnets>/<chain_name>",
        ),
      )
      .setAction(() => import("./commands/registry-check/action.js"))
      .build(),
    task(
      "proposal:whitelist",
      "Write the VIP whitelist proposal (MsgGovExecute of vip::register), checked against the rollup and the base chain",
    )
      .addOption(
        requiredTextOption(
          "operator",
          "the operator's address, 0x… or init1… (receives the operator rewards)",
        ),
      )
      .addOption(
        requiredTextOption(
          "commissionMaxRate",
          "the operator's maximum commission rate, a decimal in [0, 1]",
        ),
      )
      .addOption(
        requiredTextOption(
          "commissionMaxChangeRate",
          "the most the rate may change at once, a decimal in [0, 1]",
        ),
      )
      .addOption(
        requiredTextOption(
          "commissionRate",
          "the operator's commission rate, a decimal in [0, max rate]",
        ),
      )
      .addOption(
        requiredTextOption(
          "metadata",
          "the https URL of the proposal's forum post",
        ),
      )
      .addOption(requiredTextOption("title", "the proposal's title"))
      .addOption(requiredTextOption("summary", "the proposal's summary"))
      .addOption(
        textOption(
          "policy",
          "the scoring policy file (.sql) the rollup publishes: its name and sha256 are added to the summary",
        ),
      )
      .addOption(
        requiredTextOption(
          "out",
          "the proposal file to write, e.g. proposal.json",
        ),
      )
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
      .setAction(() => import("./commands/proposal-whitelist/action.js"))
      .build(),

    // --- Moving tokens: the routing API
    // ------------------------------------------------------------
    task(
      "bridge:route",
      "Ask the routing API for a route and print it: amounts, hops, transactions, duration, fees, warnings, op hook",
    )
      .addOption(
        requiredTextOption(
          "fromChain",
          "the source chain id (an EVM chain id in decimal, or a Cosmos chain id)",
        ),
      )
      .addOption(
        requiredTextOption(
          "fromDenom",
          "the source denom (e.g. uinit, or an ERC-20 address on an EVM chain)",
        ),
      )
      .addOption(requiredTextOption("toChain", "the destination chain id"))
      .addOption(requiredTextOption("toDenom", "the destination denom"))
      .addOption(requiredTextOption("amount", "the amount in base units"))
      .addFlag({
        name: "json",
        description: "Print the checked response as JSON",
      })
      .addFlag({
        name: "opWithdraw",
        description:
          "From a rollup: ask for the OPinit withdrawal (is_op_withdraw), as Initia's wallet does, instead of a faster bridge",
      })
      .setAction(() => import("./commands/bridge-route/action.js"))
      .build(),
    task(
      "bridge:transfer",
      "Move tokens along a route: msgs, approvals, send, track once, follow to the end; journalled and resumable",
    )
      .addOption(
        requiredTextOption(
          "fromChain",
          "the source chain id: the network's chain (EVM chain id in decimal)",
        ),
      )
      .addOption(
        requiredTextOption(
          "fromDenom",
          "the source denom (an ERC-20 address on an EVM chain)",
        ),
      )
      .addOption(requiredTextOption("toChain", "the destination chain id"))
      .addOption(requiredTextOption("toDenom", "the destination denom"))
      .addOption(requiredTextOption("amount", "the amount in base units"))
      .addOption(
        requiredTextOption(
          "to",
          "the recipient on the destination chain (0x… or init1…)",
        ),
      )
      .addOption({
        name: "slippage",
        description: "Slippage tolerance in percent",
        type: ArgumentType.STRING,
        defaultValue: "1",
      })
      .addFlag({
        name: "yes",
        description: "Sign without asking for confirmation",
      })
      .addFlag({
        name: "new",
        description:
          "Start a new transfer although the same one is journalled as finished",
      })
      .addFlag({
        name: "opWithdraw",
        description:
          "From a rollup: ask for the OPinit withdrawal (is_op_withdraw), as Initia's wallet does, instead of a faster bridge",
      })
      .addOption(
        textOption(
          "journalDir",
          "Where journals are kept (default: vip-journal/ in the project)",
        ),
      )
      .addOption(
        textOption(
          "pollInterval",
          "Poll the status every this many seconds (default: paced by the route's estimated duration)",
        ),
      )
      .addOption(
        textOption(
          "timeout",
          "Stop following after this many seconds (the transfer goes on; bridge:status resumes)",
        ),
      )
      .setAction(() => import("./commands/bridge-transfer/action.js"))
      .build(),
    task(
      "bridge:status",
      "Follow a transfer to its end by its source transaction (tracking it if it never was)",
    )
      .addOption(requiredTextOption("tx", "the source transaction's hash"))
      .addOption(
        requiredTextOption("chain", "the chain id the transaction was sent on"),
      )
      .addOption(
        textOption(
          "journalDir",
          "Where journals are kept (default: vip-journal/ in the project)",
        ),
      )
      .addOption(
        textOption(
          "pollInterval",
          "Poll every this many seconds (default: paced by the route's estimated duration)",
        ),
      )
      .addOption(
        textOption("timeout", "Stop following after this many seconds"),
      )
      .setAction(() => import("./commands/bridge-status/action.js"))
      .build(),
  ],
});

export default vipScorePlugin;
