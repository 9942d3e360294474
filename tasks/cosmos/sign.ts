import { createHash } from "node:crypto";

import {
  AuthInfo,
  Coin,
  Coins,
  EthPublicKey,
  Fee,
  ModeInfo,
  SignerInfo,
  SignMode,
  Tx,
  TxBody,
} from "@initia/initia.js";
import { computeAddress, getBytes, Signature, SigningKey } from "ethers";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { aminoForSigning, type CheckedMsg, initiaMsg } from "./amino.js";
import {
  eip191Digest,
  type SignDocFields,
  stdSignDocJson,
} from "./sign-doc.js";
import type { CosmosAccount, CosmosFee, SignedCosmosTx } from "./types.js";

export interface CosmosTxToSign {
  chainId: string;
  accountNumber: bigint;
  sequence: bigint;
  msgs: CheckedMsg[];
  fee: CosmosFee;
  memo?: string;
  account: CosmosAccount;
}

/**
 * Signs a Cosmos transaction with EIP-191 over its amino sign doc: the one mode
 * a Ledger's Ethereum app can sign (`personal_sign`), so a key and a Ledger go
 * through the same path. The public key the chain checks the signature against
 * is recovered from the signature itself, so no separate device call is needed.
 */
export async function signCosmosTx(
  tx: CosmosTxToSign,
): Promise<SignedCosmosTx> {
  for (const msg of tx.msgs) {
    if (msg.signer !== tx.account.bech32) {
      throw new VipError(ERRORS.NETWORK.COSMOS_TX.MSG_SIGNER_MISMATCH, {
        typeUrl: msg.typeUrl,
        expected: msg.signer,
        signer: tx.account.bech32,
      });
    }
  }
  const doc: SignDocFields = {
    chainId: tx.chainId,
    accountNumber: tx.accountNumber,
    sequence: tx.sequence,
    fee: tx.fee,
    memo: tx.memo ?? "",
    msgs: tx.msgs.map(aminoForSigning),
  };
  const signature = Signature.from(
    await tx.account.signer.signMessage(
      new TextEncoder().encode(stdSignDocJson(doc)),
    ),
  );
  const publicKey = SigningKey.recoverPublicKey(eip191Digest(doc), signature);
  if (
    computeAddress(publicKey).toLowerCase() !== tx.account.hex.toLowerCase()
  ) {
    throw new VipError(ERRORS.NETWORK.COSMOS_TX.SIGNATURE_WRONG_ACCOUNT, {
      hex: tx.account.hex,
    });
  }
  const signerInfo = new SignerInfo(
    new EthPublicKey(
      Buffer.from(
        getBytes(SigningKey.computePublicKey(publicKey, true)),
      ).toString("base64"),
    ),
    Number(tx.sequence),
    new ModeInfo(new ModeInfo.Single(SignMode.SIGN_MODE_EIP_191)),
  );
  const fee = new Fee(
    Number(tx.fee.gas),
    new Coins(tx.fee.amount.map((c) => new Coin(c.denom, c.amount))),
  );
  // Only r‖s: the chain's eth_secp256k1 keys verify 64-byte signatures.
  const rs = Buffer.concat([
    getBytes(signature.r),
    getBytes(signature.s),
  ]).toString("base64");
  const body = new TxBody(tx.msgs.map(initiaMsg), doc.memo);
  const txBytes = new Tx(body, new AuthInfo([signerInfo], fee), [rs]).toBytes();
  return { txBytes, hash: txHash(txBytes) };
}

/**
 * A transaction's hash as the chain names it: uppercase hex SHA-256 of its
 * bytes.
 */
export function txHash(txBytes: Uint8Array): string {
  return createHash("sha256").update(txBytes).digest("hex").toUpperCase();
}

/**
 * The transaction as `simulate` takes it: the messages, no public key (the
 * chain uses a placeholder) and an empty signature, so the gas is known before
 * the signer is asked (once) to sign.
 */
export function simulationTxBytes(
  msgs: CheckedMsg[],
  sequence: bigint,
  memo = "",
): Uint8Array {
  const signerInfo = new SignerInfo(
    undefined as never,
    Number(sequence),
    new ModeInfo(new ModeInfo.Single(SignMode.SIGN_MODE_EIP_191)),
  );
  const body = new TxBody(msgs.map(initiaMsg), memo);
  return new Tx(body, new AuthInfo([signerInfo], new Fee(0, new Coins())), [
    "",
  ]).toBytes();
}
