import { accountInfo } from "../clients/cosmos-tx.js";
import type { OpHookResponse, SignedOpHook } from "../clients/router.js";
import { VipError } from "../errors.js";
import { checkMsg } from "./amino.js";
import { signCosmosTx } from "./sign.js";
import type { CosmosAccount } from "./types.js";

/**
 * A signed op hook and what it was signed for: the chain, account number, and
 * the sequence it must run at.
 */
export interface SignedHook {
  signedOpHook: SignedOpHook;
  chainId: string;
  accountNumber: bigint;
  /** The sequence the hook is signed for. */
  sequence: bigint;
  /**
   * The account's sequence when the hook was signed: it must not move before
   * the source transaction goes out.
   */
  baseSequence: bigint;
  /** The hook's messages in words. */
  descriptions: string[];
}

/**
 * Signs the op hook `/op-hook` answered, as the rollup checks it when the
 * deposit lands: a Cosmos transaction for the hook's chain, by the destination
 * account, at that account's number and the sequence it will have then (its
 * current one; two more when the hook's chain is also the source chain, whose
 * transaction bumps it twice), with no fee (`gas: "1"`) and no memo, signed
 * with EIP-191.
 */
export async function signOpHook(options: {
  hook: OpHookResponse;
  account: CosmosAccount;
  restUrl: string;
  sourceChainId: string;
}): Promise<SignedHook> {
  const { hook, account } = options;
  const msgs = hook.hook.map((msg, i) =>
    checkMsg(msg, `op hook message ${i + 1}`),
  );
  for (const msg of msgs) {
    if (msg.signer !== account.bech32) {
      throw new VipError(
        `the op hook is to be signed by ${msg.signer} (the recipient), but the signer is ${account.bech32}: send to the signer's own account; nothing was sent`,
      );
    }
  }
  const state = await accountInfo(options.restUrl, account.bech32);
  if (state === undefined) {
    throw new VipError(
      `the op hook must be signed with the account number of ${account.bech32} on ${hook.chain_id}, which has no account there yet ` +
        "(an account exists once it has received tokens): fund it once over a route without an op hook, then run again; nothing was sent",
    );
  }
  const sequence =
    state.sequence + (hook.chain_id === options.sourceChainId ? 2n : 0n);
  const signed = await signCosmosTx({
    chainId: hook.chain_id,
    accountNumber: state.accountNumber,
    sequence,
    msgs,
    fee: { amount: [], gas: "1" },
    memo: "",
    account,
  });
  return {
    signedOpHook: {
      signer: account.bech32,
      hook: Buffer.from(signed.txBytes).toString("base64"),
    },
    chainId: hook.chain_id,
    accountNumber: state.accountNumber,
    sequence,
    baseSequence: state.sequence,
    descriptions: msgs.map((m) => m.description),
  };
}

/**
 * Re-reads the hook account's sequence right before the source transaction is
 * broadcast: if anything else was sent from it since the hook was signed, the
 * hook would be refused when the deposit lands, so nothing is sent.
 */
export async function checkHookSequence(
  restUrl: string,
  bech32: string,
  chainId: string,
  baseSequence: bigint,
): Promise<void> {
  const state = await accountInfo(restUrl, bech32);
  if (state?.sequence !== baseSequence)
    throw new HookSequenceMoved(bech32, chainId, baseSequence, state?.sequence);
}

/**
 * The op hook's account sent something since the hook was signed: the hook,
 * signed for the old sequence, would fail.
 */
export class HookSequenceMoved extends VipError {
  constructor(
    readonly account: string,
    readonly chainId: string,
    readonly from: bigint,
    readonly to: bigint | undefined,
  ) {
    super(
      `the sequence of ${account} on ${chainId} moved from ${from} to ${to ?? "(no account)"} since the op hook was signed: ` +
        "the hook would fail when the deposit lands. Nothing was sent; run again with --new to sign a new hook",
    );
  }

  /** What moved, without what to do about it. */
  get moved(): string {
    return `the sequence of ${this.account} on ${this.chainId} moved from ${this.from} to ${this.to ?? "(no account)"} since the op hook was signed`;
  }
}
