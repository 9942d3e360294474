import type { NetworkConfig } from "hardhat/types/config";

import { restChainId } from "../clients/cosmos-tx.js";
import type { RouterClient } from "../clients/router.js";
import { optionalVipUrl } from "../config/settings.js";
import { ERRORS } from "../error-catalog.js";
import { VipError, reasonOf } from "../errors.js";

interface Endpoint {
  source: string;
  url: string;
  chainId: string;
}

/**
 * The REST endpoints of the Initia chains a transfer signs on, by chain id.
 * Configuration comes first: the network's base chain (L1_REST_URL) and rollup
 * (ROLLUP_REST_URL), each asked which chain it serves. A chain neither serves
 * is looked up in the router's chain list, and the endpoint found there is used
 * only if it says it serves that chain. A chain with no endpoint is refused
 * with what to set, before anything is signed.
 */
export function cosmosEndpoints(
  networkName: string,
  network: NetworkConfig,
  router: RouterClient,
  onListed: (chainId: string, url: string) => void,
): (chainId: string) => Promise<string> {
  let configured: Promise<Endpoint[]> | undefined;
  const discover = async () => {
    const found: Endpoint[] = [];
    for (const [setting, source] of [
      ["l1RestUrl", "L1_REST_URL"],
      ["rollupRestUrl", "ROLLUP_REST_URL"],
    ] as const) {
      const url = await optionalVipUrl(networkName, network, setting);
      if (url !== undefined)
        found.push({ source, url, chainId: await restChainId(url) });
    }
    return found;
  };
  const listed = new Map<string, Promise<string>>();
  return async (chainId) => {
    configured ??= discover();
    const endpoints = await configured;
    const match = endpoints.find((e) => e.chainId === chainId);
    if (match !== undefined) return match.url;
    const served =
      endpoints.map((e) => `${e.source} serves ${e.chainId}`).join(", ") ||
      "neither L1_REST_URL nor ROLLUP_REST_URL is set";
    let lookup = listed.get(chainId);
    if (lookup === undefined) {
      lookup = fromRouterList(router, chainId, served);
      listed.set(chainId, lookup);
      onListed(chainId, await lookup);
    }
    return lookup;
  };
}

async function fromRouterList(
  router: RouterClient,
  chainId: string,
  served: string,
): Promise<string> {
  let chains;
  try {
    chains = await router.chains();
  } catch (error) {
    throw new VipError(ERRORS.NETWORK.ROUTER.ROUTER_CHAIN_LIST_UNREADABLE, {
      chainId,
      served,
      reason: reasonOf(error),
    });
  }
  // A chain with `rest: null` (the documents allow it) has no endpoint; it
  // fails only this chain's lookup.
  const rest = chains.find((c) => c.chain_id === chainId)?.rest;
  if (rest === undefined || rest === null || rest === "") {
    throw new VipError(ERRORS.NETWORK.ROUTER.NO_REST_ENDPOINT, {
      chainId,
      served,
    });
  }
  if (
    !URL.canParse(rest) ||
    !["http:", "https:"].includes(new URL(rest).protocol)
  ) {
    throw new VipError(ERRORS.NETWORK.ROUTER.ROUTER_REST_NOT_HTTP, {
      chainId,
      rest: rest.slice(0, 100),
    });
  }
  const serves = await restChainId(rest);
  if (serves !== chainId) {
    throw new VipError(ERRORS.NETWORK.ROUTER.ROUTER_REST_WRONG_CHAIN, {
      rest,
      chainId,
      serves,
    });
  }
  return rest;
}
