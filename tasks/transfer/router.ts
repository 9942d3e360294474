import type { NetworkConfig } from "hardhat/types/config";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { RouterClient } from "../clients/router.js";
import { optionalRouterApiKey, vipUrl } from "../config/settings.js";
import { firstLine, VipError } from "../errors.js";

/** The `--network` the task runs on and its config, without connecting (the routing API needs no node). */
export function selectedNetwork(hre: HardhatRuntimeEnvironment): { name: string; config: NetworkConfig } {
  const name = hre.globalOptions.network ?? "default";
  const config = hre.config.networks[name];
  if (config === undefined) throw new VipError(`there is no network "${name}" in hardhat.config.ts`);
  return { name, config };
}

/** The network's routing API client: ROUTER_URL and, if set, ROUTER_API_KEY (never printed). */
export async function routerFor(networkName: string, network: NetworkConfig): Promise<RouterClient> {
  return new RouterClient(await vipUrl(networkName, network, "routerUrl"), {
    apiKey: await optionalRouterApiKey(networkName, network),
    onRetry: (what, error, left) => console.warn(`warning: ${what}: ${firstLine(error)}; retrying (${left} left)`),
  });
}
