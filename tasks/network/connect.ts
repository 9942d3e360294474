import { HardhatError } from "@nomicfoundation/hardhat-errors";
import { isValidUrl } from "@nomicfoundation/hardhat-utils/request";
import type { HttpNetworkConfig, NetworkConfig } from "hardhat/types/config";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { NetworkConnection } from "hardhat/types/network";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";

export type Connection = NetworkConnection;

/**
 * The connection to the rollup named by `--network`, for tasks that send or
 * depend on a deployment: refused, before any key is read, unless the network
 * is a real one with `vip` settings of its own (`operatorNetwork`).
 */
export async function connect(
  hre: HardhatRuntimeEnvironment,
): Promise<Connection> {
  const { name, config } = operatorNetwork(hre);
  await checkNetworkUrl(name, config);
  return hre.network.getOrCreate();
}

/**
 * The connection to whatever network `--network` names, the in-process one
 * included: for tasks that only show something (a chain id, balances).
 */
export async function connectAnyNetwork(
  hre: HardhatRuntimeEnvironment,
): Promise<Connection> {
  const { name, config } = selectedNetwork(hre);
  await checkNetworkUrl(name, config);
  return hre.network.getOrCreate();
}

/**
 * A connection for tasks that only read (a chain id, a stage, a deployment): an
 * HTTP network's accounts are left out, so that asking needs neither
 * PRIVATE_KEY nor a Ledger, and the key is not even resolved.
 */
export async function connectReadOnly(
  hre: HardhatRuntimeEnvironment,
  { anyNetwork = false }: { anyNetwork?: boolean } = {},
): Promise<Connection> {
  const { name, config } = anyNetwork
    ? selectedNetwork(hre)
    : operatorNetwork(hre);
  if (config.type !== "http") return connectAnyNetwork(hre);
  await checkNetworkUrl(name, config);
  return hre.network.create({ network: name, override: { accounts: [] } });
}

/**
 * The rollup named by `--network`, for commands that only read it through
 * their own JSON-RPC client (no connection is made): refused, as
 * `connectReadOnly` refuses it, unless it is a real network with `vip`
 * settings of its own; its url resolved, so a variable set nowhere is
 * refused before anything else.
 */
export async function readOnlyRollup(
  hre: HardhatRuntimeEnvironment,
): Promise<{ name: string; config: HttpNetworkConfig }> {
  const { name, config } = operatorNetwork(hre);
  if (config.type !== "http")
    throw new Error("operatorNetwork answers HTTP networks alone");
  await checkNetworkUrl(name, config);
  // Hardhat's provider refuses an invalid url by the network's name; past
  // it, the URL parser's error would quote the url, key and all.
  if (!isValidUrl(await config.url.get()))
    throw new VipError(ERRORS.CONFIG.SETTINGS.NETWORK_URL_INVALID, {
      network: name,
    });
  return { name, config };
}

/** What each variable a network's url may come from is. */
const URL_VARIABLES: Record<string, string> = {
  JSON_RPC_URL:
    "the rollup's EVM JSON-RPC endpoint (e.g. http://localhost:8545)",
};

/**
 * An HTTP network's url, resolved before connecting, so a variable set
 * nowhere is refused with a VIP code saying what it is and how to set it,
 * rather than Hardhat's bare "not found" from deep in a task.
 */
async function checkNetworkUrl(
  name: string,
  config: NetworkConfig,
): Promise<void> {
  if (config.type !== "http" || typeof config.url === "string") return;
  try {
    await config.url.get();
  } catch (error) {
    if (
      !HardhatError.isHardhatError(
        error,
        HardhatError.ERRORS.CORE.GENERAL.ENV_VAR_NOT_FOUND,
      )
    )
      throw error;
    const variable = String(error.messageArguments.name);
    throw new VipError(
      ERRORS.CONFIG.SETTINGS.NETWORK_URL_NOT_SET,
      {
        network: name,
        variable,
        what: URL_VARIABLES[variable] ?? `the URL of network "${name}"'s node`,
        advice:
          `set ${variable} in the environment (export ${variable}=http://…) or with ` +
          `\`npx hardhat keystore set ${variable}\``,
      },
      error,
    );
  }
}

/**
 * The `--network` the task runs on and its config, without connecting (the
 * routing API and a CometBFT RPC need no node).
 */
export function selectedNetwork(hre: HardhatRuntimeEnvironment): {
  name: string;
  config: NetworkConfig;
} {
  const name = hre.globalOptions.network ?? "default";
  const config = hre.config.networks[name];
  if (config === undefined)
    throw new VipError(ERRORS.NETWORK.TASK_NETWORK.NO_SUCH_NETWORK, { name });
  return { name, config };
}

/**
 * The `--network` a real operation may run on: one reached over HTTP (an
 * in-process network starts empty and vanishes when the command exits, so a
 * contract deployed or a stage finalized there is lost) that has `vip`
 * settings of its own in the config (every network gets a resolved `vip`
 * block, so only the user's own block tells a rollup from anything else).
 * Otherwise an error naming the networks that qualify and the option to add.
 */
export function operatorNetwork(hre: HardhatRuntimeEnvironment): {
  name: string;
  config: NetworkConfig;
} {
  const selected = selectedNetwork(hre);
  const { name, config } = selected;
  const inProcess = config.type !== "http";
  if (!inProcess && config.vip.configured) return selected;
  const rollups = Object.entries(hre.config.networks)
    .filter(([, network]) => network.type === "http" && network.vip.configured)
    .map(([networkName]) => networkName);
  const fix = rollupAdvice(rollups);
  if (inProcess) {
    const unnamed =
      hre.globalOptions.network === undefined
        ? " (no --network was given)"
        : "";
    throw new VipError(ERRORS.NETWORK.TASK_NETWORK.IN_PROCESS_NETWORK, {
      name,
      unnamed,
      fix,
    });
  }
  throw new VipError(ERRORS.NETWORK.TASK_NETWORK.NOT_A_ROLLUP_NETWORK, {
    name,
    fix,
  });
}

/** What to run instead, given the networks that have vip settings. */
function rollupAdvice(rollups: string[]): string {
  if (rollups.length === 0)
    return (
      "add a network with a vip block (rollupRpcUrl, l1RestUrl, …) to hardhat.config.ts " +
      "(docs/configuration.md), then run the command with --network <its name>"
    );
  const options = rollups.map((n) => `--network ${n}`).join(" or ");
  const networks = rollups.length === 1 ? "network" : "networks";
  return `run the command again with ${options} (the ${networks} with vip settings)`;
}
