import { HDNodeWallet, Mnemonic, randomBytes, wordlists } from "ethers";

import { ERRORS } from "../error-catalog.js";
import { VipError, defined } from "../errors.js";

/** minitiad's path for eth_secp256k1 keys (coin type 60), the first account. */
const DERIVATION_PATH = "m/44'/60'/0'/0/0";

/**
 * The account a BIP39 mnemonic gives at DERIVATION_PATH. Refusals say what is
 * wrong, echoing no word.
 */
export function accountFromMnemonic(phrase: string): HDNodeWallet {
  const words = phrase
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== "");
  if (![12, 15, 18, 21, 24].includes(words.length)) {
    throw new VipError(ERRORS.CONTRACT.ACCOUNTS.MNEMONIC_WORD_COUNT, {
      count: words.length,
    });
  }
  const english = defined(wordlists.en, "ethers ships the English word list");
  const unknown = words.filter((word) => english.getWordIndex(word) < 0).length;
  if (unknown > 0)
    throw new VipError(ERRORS.CONTRACT.ACCOUNTS.MNEMONIC_UNKNOWN_WORDS, {
      count: unknown,
    });
  if (!Mnemonic.isValidMnemonic(words.join(" "))) {
    throw new VipError(ERRORS.CONTRACT.ACCOUNTS.MNEMONIC_CHECKSUM);
  }
  return HDNodeWallet.fromPhrase(words.join(" "), undefined, DERIVATION_PATH);
}

/**
 * A new 24-word mnemonic from 32 bytes of the system's entropy, and its
 * account.
 */
export function newAccount(): { phrase: string; account: HDNodeWallet } {
  const mnemonic = Mnemonic.fromEntropy(randomBytes(32));
  return {
    phrase: mnemonic.phrase,
    account: HDNodeWallet.fromMnemonic(mnemonic, DERIVATION_PATH),
  };
}

/**
 * All of standard input, for a mnemonic piped in (never an argument: arguments
 * land in shell history).
 */
export async function readStdin(): Promise<string> {
  let text = "";
  process.stdin.setEncoding("utf8");
  for await (const chunk of process.stdin) text += chunk as string;
  return text;
}
