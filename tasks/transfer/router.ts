import type { NetworkConfig } from "hardhat/types/config";

import { RouterClient } from "../clients/router.js";
import { optionalRouterApiKey, vipUrl } from "../config/settings.js";
import { reasonOf } from "../errors.js";

/**
 * The network's routing API client: ROUTER_URL and, if set, ROUTER_API_KEY
 * (never printed).
 */
export async function routerFor(
  networkName: string,
  network: NetworkConfig,
): Promise<RouterClient> {
  return new RouterClient(await vipUrl(networkName, network, "routerUrl"), {
    apiKey: await optionalRouterApiKey(networkName, network),
    onRetry: (what, error, left) =>
      console.warn(
        `warning: ${what}: ${reasonOf(error, "with code")}; retrying (${left} left)`,
      ),
  });
}
