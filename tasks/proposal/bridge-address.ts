import { createHash } from "node:crypto";

import { AccAddress } from "@initia/initia.js";

/**
 * The OPinit bridge's account on the base chain, derived from its id as the
 * ophost module derives it (a Cosmos module account: sha256(sha256("module") ‖
 * "ophost" ‖ 0x00 ‖ u64be(bridge_id))), so the address a rollup reports can be
 * checked offline before it goes into a proposal.
 */
export function deriveBridgeAddress(bridgeId: bigint): string {
  const typeHash = createHash("sha256").update("module").digest();
  const id = Buffer.alloc(8);
  id.writeBigUInt64BE(bridgeId);
  const key = Buffer.concat([Buffer.from("ophost"), Buffer.from([0]), id]);
  const address = createHash("sha256")
    .update(Buffer.concat([typeHash, key]))
    .digest();
  return AccAddress.fromHex(`0x${address.toString("hex")}`);
}
