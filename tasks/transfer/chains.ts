import type { NetworkConfig } from "hardhat/types/config";

import { restChainId } from "../clients/cosmos-tx.js";
import { optionalVipUrl } from "../config/settings.js";
import { VipError } from "../errors.js";

/**
 * The REST endpoints of the Initia chains a transfer signs on, by chain id: the network's base chain
 * (L1_REST_URL) and rollup (ROLLUP_REST_URL), each asked which chain it serves. A chain neither serves is
 * refused with what to set, before anything is signed.
 */
export function cosmosEndpoints(networkName: string, network: NetworkConfig): (chainId: string) => Promise<string> {
  let known: Promise<{ variable: string; url: string; chainId: string }[]> | undefined;
  const discover = async () => {
    const found = [];
    for (const [setting, variable] of [["l1RestUrl", "L1_REST_URL"], ["rollupRestUrl", "ROLLUP_REST_URL"]] as const) {
      const url = await optionalVipUrl(networkName, network, setting);
      if (url !== undefined) found.push({ variable, url, chainId: await restChainId(url) });
    }
    return found;
  };
  return async (chainId) => {
    known ??= discover();
    const endpoints = await known;
    const match = endpoints.find((e) => e.chainId === chainId);
    if (match !== undefined) return match.url;
    const served = endpoints.map((e) => `${e.variable} serves ${e.chainId}`).join(", ") || "neither L1_REST_URL nor ROLLUP_REST_URL is set";
    throw new VipError(`there is no REST endpoint for chain ${chainId} to sign on (${served}): set L1_REST_URL or ROLLUP_REST_URL to its REST API; nothing was sent`);
  };
}
