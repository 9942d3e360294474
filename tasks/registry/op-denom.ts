import { createHash } from "node:crypto";

/**
 * The denom a base-chain token has on the rollup once bridged through OPinit
 * bridge `bridgeId`: `l2/` + hex(sha3_256(u64be(bridge_id) ‖ l1_denom)), as the
 * opchild module names it.
 */
export function l2Denom(bridgeId: bigint, l1Denom: string): string {
  const id = Buffer.alloc(8);
  id.writeBigUInt64BE(bridgeId);
  return `l2/${createHash("sha3-256")
    .update(Buffer.concat([id, Buffer.from(l1Denom, "utf8")]))
    .digest("hex")}`;
}
