import { accountInfo } from "../clients/cosmos-tx.js";
import type { OpHookResponse, SignedOpHook } from "../clients/router.js";
import { ERRORS } from "../error-catalog.js";
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
      throw new VipError(ERRORS.NETWORK.COSMOS_TX.HOOK_SIGNER_MISMATCH, {
        expected: msg.signer,
        signer: account.bech32,
      });
    }
  }
  const state = await accountInfo(options.restUrl, account.bech32);
  if (state === undefined) {
    throw new VipError(ERRORS.NETWORK.COSMOS_TX.HOOK_NO_ACCOUNT, {
      account: account.bech32,
      chainId: hook.chain_id,
    });
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
export class HookSequenceMoved extends VipError<
  typeof ERRORS.NETWORK.COSMOS_TX.HOOK_SEQUENCE_MOVED
> {
  constructor(
    readonly account: string,
    readonly chainId: string,
    readonly from: bigint,
    readonly to: bigint | undefined,
  ) {
    super(ERRORS.NETWORK.COSMOS_TX.HOOK_SEQUENCE_MOVED, {
      account,
      chainId,
      from,
      to: to ?? "(no account)",
    });
  }

  /** What moved, without what to do about it. */
  get moved(): string {
    const to = this.to ?? "(no account)";
    return (
      `the sequence of ${this.account} on ${this.chainId} moved from ${this.from} to ${to} ` +
      "since the op hook was signed"
    );
  }
}
