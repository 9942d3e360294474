import { bech32 } from "bech32";
import { getAddress, isAddress } from "ethers";

import { ERRORS } from "../error-catalog.js";
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
    const bytes = initBytes(trimmed);
    if (bytes === undefined) {
      throw new VipError(ERRORS.CONTRACT.ACCOUNTS.ADDRESS_BAD_BECH32, {
        what,
        address: trimmed,
      });
    }
    if (bytes.length !== 20) {
      throw new VipError(ERRORS.CONTRACT.ACCOUNTS.ADDRESS_NOT_ACCOUNT, {
        what,
        address: trimmed,
        bytes: bytes.length,
      });
    }
    return {
      hex: getAddress(`0x${Buffer.from(bytes).toString("hex")}`),
      bech32: trimmed,
    };
  }
  if (!isAddress(trimmed)) {
    throw new VipError(ERRORS.CONTRACT.ACCOUNTS.ADDRESS_INVALID, {
      what,
      address: trimmed,
    });
  }
  const hex = getAddress(trimmed);
  return {
    hex,
    bech32: bech32.encode(
      "init",
      bech32.toWords(Buffer.from(hex.slice(2), "hex")),
    ),
  };
}

/**
 * The bytes of an `init1…` address, as initia.js's `AccAddress.validate` and
 * `toHex` read it (prefix `init`, 43 characters for 20 bytes or 63 for 32, a
 * valid checksum); undefined otherwise. The `bech32` package that initia.js
 * itself uses, without loading all of initia.js (0.3 s) in every command
 * that names its signer.
 */
function initBytes(text: string): Uint8Array | undefined {
  if (text.length !== 43 && text.length !== 63) return undefined;
  try {
    const { prefix, words } = bech32.decode(text);
    return prefix === "init"
      ? Uint8Array.from(bech32.fromWords(words))
      : undefined;
  } catch {
    return undefined;
  }
}
