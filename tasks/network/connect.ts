import type { NetworkConfig } from "hardhat/types/config";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { NetworkConnection } from "hardhat/types/network";

import { VipError } from "../errors.js";

export type Connection = NetworkConnection;

/**
 * The connection to the network named by `--network` (the default network when
 * none is given).
 */
export async function connect(
  hre: HardhatRuntimeEnvironment,
): Promise<Connection> {
  return hre.network.getOrCreate();
}

/**
 * A connection for tasks that only read (a chain id, a stage, a deployment): an
 * HTTP network's accounts are left out, so that asking needs neither
 * PRIVATE_KEY nor a Ledger, and the key is not even resolved.
 */
export async function connectReadOnly(
  hre: HardhatRuntimeEnvironment,
): Promise<Connection> {
  const { name, config } = selectedNetwork(hre);
  if (config.type !== "http") return connect(hre);
  return hre.network.create({ network: name, override: { accounts: [] } });
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
    throw new VipError(`there is no network "${name}" in hardhat.config.ts`);
  return { name, config };
}
