import { z } from "zod";

import { describeEndpoint, expectShape, requestJson } from "./http.js";

/**
 * The rollup's OPinit bridge to the base chain, as its opchild module reports
 * it.
 */
export interface BridgeInfo {
  bridgeId: bigint;
  /** The bridge's account on the base chain (init1…, 32 bytes). */
  bridgeAddress: string;
  /** The base chain's id: `interwoven-1` on mainnet. */
  l1ChainId: string;
}

const bridgeInfoAnswer = z.object({
  bridge_info: z.object({
    bridge_id: z.string().regex(/^\d+$/, "must be a u64 as a decimal string"),
    bridge_addr: z.string().startsWith("init1", "must be an init1… address"),
    l1_chain_id: z.string().min(1),
  }),
});

/** `GET {rollup rest}/opinit/opchild/v1/bridge_info`. */
export async function fetchBridgeInfo(restUrl: string): Promise<BridgeInfo> {
  const path = "/opinit/opchild/v1/bridge_info";
  const answer = await requestJson(restUrl, path, { method: "GET" });
  const info = expectShape(
    bridgeInfoAnswer,
    answer,
    `bridge info at ${describeEndpoint(restUrl, path)}`,
  ).bridge_info;
  return {
    bridgeId: BigInt(info.bridge_id),
    bridgeAddress: info.bridge_addr,
    l1ChainId: info.l1_chain_id,
  };
}
