import { createKeccak } from "hash-wasm";

// One keccak instance, reused: hash-wasm's WebAssembly keccak checks a million
// checksummed addresses about six times faster than ethers' `getAddress`
// (measured in a score file's validation, where it was most of the time).
const keccak = await createKeccak(256);

/**
 * The EIP-55 spelling of a 40-digit lowercase hex address (no `0x`): a letter
 * is upper case where the keccak of the lowercase text has a nibble of 8 or
 * more.
 */
export function eip55(lowerHex: string): string {
  const upper = upperCaseMask(lowerHex);
  let out = "0x";
  for (let i = 0; i < 40; i++)
    out +=
      upper[i] === 1 ? lowerHex.charAt(i).toUpperCase() : lowerHex.charAt(i);
  return out;
}

/** The lowercase text `matchesEip55` hashes, reused: no string per address. */
const lowered = new Uint8Array(40);

/**
 * Whether 40 mixed-case hex digits (no `0x`) are spelled as EIP-55 spells
 * them, without building the spelling: the common case of a valid file.
 */
export function matchesEip55(hex: string): boolean {
  for (let i = 0; i < 40; i++) {
    const code = hex.charCodeAt(i);
    lowered[i] = code >= 0x41 && code <= 0x46 ? code + 0x20 : code;
  }
  keccak.init();
  keccak.update(lowered);
  const hash = keccak.digest("binary");
  for (let i = 0; i < 40; i++) {
    const code = hex.charCodeAt(i);
    if (code < 0x41) continue; // a digit has no case
    const byte = hash[i >> 1] ?? 0;
    const nibble = (i & 1) === 0 ? byte >> 4 : byte & 15;
    if (code < 0x61 !== nibble >= 8) return false;
  }
  return true;
}

/** 1 where EIP-55 writes the digit upper case (if it is a letter). */
function upperCaseMask(lowerHex: string): Uint8Array {
  keccak.init();
  keccak.update(lowerHex);
  const hash = keccak.digest("binary");
  const mask = new Uint8Array(40);
  for (let i = 0; i < 40; i++) {
    const byte = hash[i >> 1] ?? 0;
    mask[i] = ((i & 1) === 0 ? byte >> 4 : byte & 15) >= 8 ? 1 : 0;
  }
  return mask;
}
