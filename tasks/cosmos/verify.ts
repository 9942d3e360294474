import { AccAddress } from "@initia/initia.js";
import {
  AuthInfo,
  SignDoc,
  TxBody,
  TxRaw,
} from "@initia/initia.proto/cosmos/tx/v1beta1/tx.js";
import { PubKey } from "@initia/initia.proto/initia/crypto/v1beta1/ethsecp256k1/keys.js";
import { ensureError } from "@nomicfoundation/hardhat-utils/error";
import {
  computeAddress,
  hexlify,
  keccak256,
  Signature,
  SigningKey,
} from "ethers";

import { aminoForSigning, type CheckedMsg, checkProtoAny } from "./amino.js";
import { eip191Digest } from "./sign-doc.js";
import { txHash } from "./sign.js";
import type { AccountState, Coin } from "./types.js";
import { defined, messageOf } from "../errors.js";

// How an Initia chain checks a transaction's signature, for the stand-ins: the
// bytes are decoded, the sign bytes rebuilt from what was decoded (never taken
// from the sender), and the signature checked against the eth_secp256k1 public
// key the transaction carries, whose address must be the messages' signer.

const ETH_SECP256K1 = "/initia.crypto.v1beta1.ethsecp256k1.PubKey";
const SIGN_MODE_DIRECT = 1;
const SIGN_MODE_EIP_191 = 191;
const HALF_N =
  0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/**
 * A refusal in the chain's terms: the ABCI code (sdk errors: 2 parse, 4
 * unauthorized, 8 invalid pubkey, 9 unknown address, 32 wrong sequence) and
 * log.
 */
export class TxRejection extends Error {
  constructor(
    readonly code: number,
    readonly log: string,
  ) {
    super(log);
  }
}

export interface VerifiedTx {
  hash: string;
  signer: string;
  sequence: bigint;
  msgs: CheckedMsg[];
  fee: { amount: Coin[]; gas: string };
  memo: string;
  /**
   * How it was signed; "unchecked" when the signature was not checked
   * (simulation).
   */
  mode: "EIP-191" | "DIRECT" | "unchecked";
}

export interface VerifyOptions {
  chainId: string;
  /**
   * The signer's account as the chain has it now; undefined when it does not
   * exist.
   */
  account: (bech32: string) => AccountState | undefined;
  /**
   * How far past the account's sequence the transaction is signed (an op hook
   * on its source chain: 2).
   */
  sequenceOffset?: bigint;
  /**
   * Check messages, account and sequence but not the signature, as `simulate`
   * does.
   */
  skipSignature?: boolean;
}

/**
 * Decodes and verifies a signed transaction as the chain's ante handler would;
 * throws a TxRejection.
 */
export function verifyTx(
  txBytes: Uint8Array,
  options: VerifyOptions,
): VerifiedTx {
  const decoded = decode(txBytes);
  const { body, authInfo } = decoded;
  const { msgs, signer } = checkedMessages(body);
  const signerInfo = soleSignerInfo(decoded);
  const account = options.account(signer);
  if (account === undefined)
    throw new TxRejection(9, `account ${signer} not found: unknown address`);
  const expected = account.sequence + (options.sequenceOffset ?? 0n);
  if (signerInfo.sequence !== expected)
    throw new TxRejection(
      32,
      `account sequence mismatch, expected ${expected}, got ${signerInfo.sequence}: incorrect account sequence`,
    );
  const fee = {
    amount: (authInfo.fee?.amount ?? []).map((c) => ({
      denom: c.denom,
      amount: c.amount,
    })),
    gas: (authInfo.fee?.gasLimit ?? 0n).toString(),
  };
  const result = {
    hash: txHash(txBytes),
    signer,
    sequence: signerInfo.sequence,
    msgs,
    fee,
    memo: body.memo,
  };
  if (options.skipSignature === true) return { ...result, mode: "unchecked" };
  const mode = checkSignature(decoded, signerInfo, {
    ...result,
    chainId: options.chainId,
    accountNumber: account.accountNumber,
  });
  return { ...result, mode };
}

type Decoded = ReturnType<typeof decode>;
type SignerInfo = NonNullable<Decoded["authInfo"]["signerInfos"][number]>;

/** The messages, checked by the signing rules, and their one signer. */
function checkedMessages(body: Decoded["body"]): {
  msgs: CheckedMsg[];
  signer: string;
} {
  const msgs = body.messages.map((any, i) => {
    try {
      return checkProtoAny(any, `message ${i + 1}`);
    } catch (error) {
      ensureError(error);
      throw new TxRejection(2, `tx parse error: ${messageOf(error)}`);
    }
  });
  const first = msgs[0];
  if (first === undefined)
    throw new TxRejection(
      2,
      "invalid request: must contain at least one message",
    );
  const signer = first.signer;
  if (msgs.some((m) => m.signer !== signer))
    throw new TxRejection(
      4,
      "unauthorized: messages have different signers, and this chain stand-in takes one",
    );
  return { msgs, signer };
}

/** The one signer's info: a transaction with another count is refused. */
function soleSignerInfo({ raw, authInfo }: Decoded): SignerInfo {
  const signerInfo = authInfo.signerInfos[0];
  if (
    authInfo.signerInfos.length !== 1 ||
    raw.signatures.length !== 1 ||
    signerInfo === undefined
  ) {
    throw new TxRejection(
      4,
      `wrong number of signers; expected 1, got ${raw.signatures.length}: unauthorized`,
    );
  }
  return signerInfo;
}

/** What the sign bytes are rebuilt from (never taken from the sender). */
interface SignedFields {
  signer: string;
  chainId: string;
  accountNumber: bigint;
  sequence: bigint;
  fee: { amount: Coin[]; gas: string };
  memo: string;
  msgs: CheckedMsg[];
}

/**
 * Checks the public key (an eth_secp256k1 key of the signer's address) and the
 * signature over the sign bytes of the transaction's sign mode; returns the
 * mode.
 */
function checkSignature(
  { raw }: Decoded,
  signerInfo: SignerInfo,
  fields: SignedFields,
): "EIP-191" | "DIRECT" {
  const compressed = signerKey(signerInfo, fields.signer);
  const mode = signerInfo.modeInfo?.single?.mode as number | undefined;
  let digest: string;
  if (mode === SIGN_MODE_EIP_191) {
    digest = eip191Digest({
      chainId: fields.chainId,
      accountNumber: fields.accountNumber,
      sequence: fields.sequence,
      fee: fields.fee,
      memo: fields.memo,
      msgs: fields.msgs.map(aminoForSigning),
    });
  } else if (mode === SIGN_MODE_DIRECT) {
    digest = keccak256(
      SignDoc.encode({
        bodyBytes: raw.bodyBytes,
        authInfoBytes: raw.authInfoBytes,
        chainId: fields.chainId,
        accountNumber: fields.accountNumber,
      }).finish(),
    );
  } else {
    throw new TxRejection(
      4,
      `sign mode ${mode ?? "(none)"} is not supported: unauthorized`,
    );
  }
  const signature = defined(
    raw.signatures[0],
    "soleSignerInfo checked there is exactly one signature",
  );
  if (!signedBy(signature, digest, compressed)) {
    throw new TxRejection(
      4,
      "signature verification failed; please verify " +
        `account number (${fields.accountNumber}), sequence (${fields.sequence}) ` +
        `and chain-id (${fields.chainId}): unauthorized`,
    );
  }
  return mode === SIGN_MODE_DIRECT ? "DIRECT" : "EIP-191";
}

/** The signer's compressed public key, checked to be its address's. */
function signerKey(signerInfo: SignerInfo, signer: string): string {
  if (signerInfo.publicKey?.typeUrl !== ETH_SECP256K1)
    throw new TxRejection(
      8,
      `pubKey of type ${signerInfo.publicKey?.typeUrl ?? "(none)"} is not ${ETH_SECP256K1}: invalid pubkey`,
    );
  const compressed = hexlify(PubKey.decode(signerInfo.publicKey.value).key);
  let pubkeyAddress: string;
  try {
    pubkeyAddress = AccAddress.fromHex(
      computeAddress(compressed).toLowerCase(),
    );
  } catch {
    throw new TxRejection(
      8,
      "invalid eth_secp256k1 public key: invalid pubkey",
    );
  }
  if (pubkeyAddress !== signer)
    throw new TxRejection(
      8,
      `pubKey does not match signer address ${signer} with signer index: 0: invalid pubkey`,
    );
  return compressed;
}

/**
 * A signed op hook (`signed_op_hook.hook`, base64 Tx bytes) checked the way the
 * rollup will check it when the deposit lands.
 */
export function verifySignedOpHook(
  hookBase64: string,
  options: VerifyOptions,
): VerifiedTx {
  const verified = verifyTx(Buffer.from(hookBase64, "base64"), options);
  if (verified.fee.amount.length !== 0)
    throw new TxRejection(4, "an op hook pays no fee: its fee must be empty");
  return verified;
}

function decode(txBytes: Uint8Array) {
  try {
    const raw = TxRaw.decode(txBytes);
    return {
      raw,
      body: TxBody.decode(raw.bodyBytes),
      authInfo: AuthInfo.decode(raw.authInfoBytes),
    };
  } catch (error) {
    ensureError(error);
    throw new TxRejection(2, `tx parse error: ${error.message}`);
  }
}

/**
 * A 64-byte r‖s signature with low S, by the holder of `compressedKey`, over
 * `digest`.
 */
function signedBy(
  signature: Uint8Array,
  digest: string,
  compressedKey: string,
): boolean {
  if (signature.length !== 64) return false;
  const r = hexlify(signature.subarray(0, 32));
  const s = hexlify(signature.subarray(32));
  if (BigInt(s) > HALF_N) return false;
  return [27, 28].some((v) => {
    try {
      return (
        SigningKey.computePublicKey(
          SigningKey.recoverPublicKey(digest, Signature.from({ r, s, v })),
          true,
        ) === compressedKey
      );
    } catch {
      return false;
    }
  });
}
