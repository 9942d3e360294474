import { hashMessage } from "ethers";

import type { AminoMsg, CosmosFee } from "./types.js";

export interface SignDocFields {
  chainId: string;
  accountNumber: bigint;
  sequence: bigint;
  fee: CosmosFee;
  memo: string;
  msgs: AminoMsg[];
}

/**
 * The amino `StdSignDoc` as the chain serialises it for signing: keys sorted at
 * every level, numbers as decimal strings, no spaces, and `&`, `<`, `>` escaped
 * as Go's encoding/json escapes them.
 */
export function stdSignDocJson(doc: SignDocFields): string {
  const value = {
    account_number: doc.accountNumber.toString(),
    chain_id: doc.chainId,
    fee: { amount: doc.fee.amount, gas: doc.fee.gas },
    memo: doc.memo,
    msgs: doc.msgs,
    sequence: doc.sequence.toString(),
  };
  return JSON.stringify(sortKeys(value))
    .replace(/&/g, "\\u0026")
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e");
}

/**
 * What an EIP-191 signature over the sign doc signs: keccak256("\x19Ethereum
 * Signed Message:\n" + length + json).
 */
export function eip191Digest(doc: SignDocFields): string {
  return hashMessage(stdSignDocJson(doc));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
