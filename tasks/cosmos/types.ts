export type { AccountState } from "../clients/cosmos-tx.js";

/**
 * One message as the router sends it: a type URL and the message's amino JSON
 * value, as a string.
 */
export interface AminoJsonMsg {
  msg_type_url: string;
  msg: string;
}

/**
 * A message in the amino form the chain signs: `{type, value}`, value built by
 * the chain's proto rules.
 */
export interface AminoMsg {
  type: string;
  value: Record<string, unknown>;
}

/**
 * What signs Cosmos transactions: the operator's account (an OperatorSigner
 * satisfies it, key or Ledger).
 */
export interface CosmosAccount {
  hex: string;
  bech32: string;
  signer: { signMessage(message: string | Uint8Array): Promise<string> };
}

/** A coin in base units. */
export interface Coin {
  denom: string;
  amount: string;
}

/** A transaction's fee: the coins paid and the gas limit. */
export interface CosmosFee {
  amount: Coin[];
  gas: string;
}

export interface SignedCosmosTx {
  txBytes: Uint8Array;
  /**
   * Uppercase hex SHA-256 of txBytes, as the chain names the transaction: known
   * before broadcast.
   */
  hash: string;
}
