import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";

/**
 * The order of secp256k1's group: a private key is a whole number in [1, n -
 * 1].
 */
const SECP256K1_ORDER =
  0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * Checks a private key as it was configured, before any library parses it:
 * libraries either fail with a message that says nothing useful
 * ("Field.fromBytes: expected 32 bytes, got 33"), or, worse, quietly trim or
 * pad it into another account. Every refusal names the variable and what is
 * wrong, and echoes none of the value, not even a part of it.
 */
export function checkPrivateKey(raw: string, variable: string): Uint8Array {
  const digits =
    raw.startsWith("0x") || raw.startsWith("0X") ? raw.slice(2) : raw;
  const stray = [...digits].filter(
    (character) => !/[0-9a-fA-F]/.test(character),
  );
  if (stray.length > 0) {
    const whitespace = stray.filter((character) => /\s/.test(character)).length;
    const kinds =
      whitespace === stray.length
        ? "whitespace"
        : whitespace > 0
          ? "whitespace and other non-hex characters"
          : "non-hex characters";
    throw new VipError(ERRORS.CONTRACT.ACCOUNTS.KEY_NOT_HEX, {
      variable,
      count: stray.length,
      characters:
        stray.length === 1 ? "character that is" : "characters that are",
      kinds,
    });
  }
  if (digits.length !== 64) {
    throw new VipError(ERRORS.CONTRACT.ACCOUNTS.KEY_LENGTH, {
      variable,
      digits: digits.length,
    });
  }
  const value = BigInt(`0x${digits}`);
  if (value === 0n || value >= SECP256K1_ORDER) {
    throw new VipError(ERRORS.CONTRACT.ACCOUNTS.KEY_OUT_OF_RANGE, { variable });
  }
  return Uint8Array.from(Buffer.from(digits, "hex"));
}
