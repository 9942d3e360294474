import { AccAddress } from "@initia/initia.js";
import { getAddress, isAddress } from "ethers";

import { VipError } from "../errors.js";

/**
 * An account's two spellings: `0x…` on the EVM, `init1…` on Initia's Cosmos
 * side. Both are the same 20 bytes (eth_secp256k1 keys), so one key serves the
 * rollup, the base chain and the proposal.
 */
export interface AccountAddresses {
  /** EIP-55 checksummed. */
  hex: string;
  bech32: string;
}

/**
 * Both spellings of an address given in either; errors name `what` (an option
 * or a field).
 */
export function accountAddresses(
  address: string,
  what: string,
): AccountAddresses {
  const trimmed = address.trim();
  if (trimmed.startsWith("init1")) {
    if (!AccAddress.validate(trimmed)) {
      throw new VipError(
        `${what}: "${trimmed}" is not a valid init1… address (bad bech32 checksum or length)`,
      );
    }
    const hex = AccAddress.toHex(trimmed);
    if (hex.length !== 42) {
      throw new VipError(
        `${what}: "${trimmed}" is a ${(hex.length - 2) / 2}-byte module or contract address, not a 20-byte account`,
      );
    }
    return { hex: getAddress(hex), bech32: trimmed };
  }
  if (!isAddress(trimmed)) {
    throw new VipError(
      `${what}: "${trimmed}" is neither a 0x… address (40 hex digits, valid EIP-55 checksum) nor an init1… address`,
    );
  }
  return {
    hex: getAddress(trimmed),
    bech32: AccAddress.fromHex(trimmed.toLowerCase()),
  };
}
