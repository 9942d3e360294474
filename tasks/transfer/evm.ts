import { Contract, type Provider, type Signer } from "ethers";

import type { EvmTx } from "../clients/router.js";
import {
  maxCost,
  refused,
  transactionOverrides,
  withMargin,
} from "../contract/confirm.js";
import { ERRORS } from "../error-catalog.js";
import { VipError, defined, reasonOf } from "../errors.js";
import type { TransferRecord } from "./records.js";
import { stepState } from "./step-state.js";
import { applyRecords, type Journalled } from "../journal/apply-record.js";
import { findByNonce } from "../journal/find-by-nonce.js";
import type { Journal } from "../journal/journal.js";
import { nextAction } from "../journal/next-action.js";
import type { Sending } from "../journal/transaction-state.js";
import { minedRevertReason } from "../network/mined-revert.js";
import { isTransient } from "../network/retry.js";
import { field, type Output } from "../output.js";
import { ensureFunds } from "../signer/funds.js";

const ERC20 = [
  "function allowance(address owner, address spender) view returns (uint256)",
  "function approve(address spender, uint256 amount) returns (bool)",
];

export interface EvmContext {
  journal: Journal<TransferRecord>;
  signer: Signer;
  from: string;
  provider: Provider;
  chainId: bigint;
  out: Output;
}

/**
 * Runs one `evm_tx` of a route: each ERC-20 approval it needs (exactly the
 * amount, only when the allowance is short), then the transaction; each sent
 * once across restarts. Returns the transaction's hash.
 */
export async function runEvmTx(
  context: EvmContext,
  index: number,
  tx: EvmTx,
): Promise<string> {
  for (const [j, approval] of tx.required_erc20_approvals.entries()) {
    const step = `tx${index}-approve${j}`;
    if (!journalled(context, step)) {
      const token = new Contract(
        approval.token_contract,
        ERC20,
        context.provider,
      );
      const allowance = (await token.getFunction("allowance")(
        context.from,
        approval.spender,
      )) as bigint;
      if (allowance >= BigInt(approval.amount)) {
        context.out.line(
          field(
            "approval",
            `${approval.token_contract} already allows ${approval.spender} ${allowance} (≥ ${approval.amount})`,
          ),
        );
        continue;
      }
    }
    const data = new Contract(
      approval.token_contract,
      ERC20,
    ).interface.encodeFunctionData("approve", [
      approval.spender,
      BigInt(approval.amount),
    ]);
    const hash = await sendOnce(
      context,
      step,
      { to: approval.token_contract, data, value: 0n },
      `approve ${approval.amount} to ${approval.spender}`,
    );
    context.out.line(
      field(
        "approved",
        `${approval.amount} of ${approval.token_contract} to ${approval.spender} in ${hash}`,
      ),
    );
  }
  const data = tx.data.startsWith("0x") ? tx.data : `0x${tx.data}`;
  const hash = await sendOnce(
    context,
    `tx${index}`,
    { to: tx.to, data, value: BigInt(tx.value === "" ? "0" : tx.value) },
    `transaction ${index + 1}`,
  );
  context.out.line(field("sent", `transaction ${index + 1} ${hash}, mined`));
  return hash;
}

/** Whether anything of `step` was journalled: its allowance was read then. */
function journalled(context: EvmContext, step: string): boolean {
  return stepState(context.journal.records, step).status !== "planned";
}

/** A call of the route: where it goes, its calldata, its value. */
interface Call {
  to: string;
  data: string;
  value: bigint;
}

/** One EVM step's transaction, in the state its journal leaves it. */
interface StepTransaction extends Journalled {
  step: string;
}

/**
 * Sends `call` as `step` exactly once, whatever restarts happen: the nonce is
 * journalled before the send, the hash after, the receipt last; a restart
 * branches on the step's next action (done, reverted, its nonce checked, its
 * receipt waited for) and sends again only what never reached the node, with
 * the same nonce. Waits for the receipt.
 */
async function sendOnce(
  context: EvmContext,
  step: string,
  call: Call,
  what: string,
): Promise<string> {
  const transaction: StepTransaction = {
    step,
    state: stepState(context.journal.records, step),
  };
  const next = nextAction(transaction.state);
  let hash: string;
  switch (next.action) {
    case "done":
      return next.confirmed.hash;
    case "reverted":
      throw await evmTxFailed(context, next.confirmed.hash);
    case "wait-for-receipt":
      hash = next.sent.hash;
      break;
    case "check-nonce":
      hash =
        (await foundByNonce(context, transaction, next.sending, call, what)) ??
        (await broadcast(context, transaction, call, what, next.sending.nonce));
      break;
    case "send":
    case "resend":
      hash = await broadcast(context, transaction, call, what);
      break;
  }
  return confirm(context, transaction, hash, what);
}

/**
 * A step journalled as sending: its transaction found by nonce (journalled as
 * sent), or undefined when the nonce was never used. A nonce used by another
 * transaction, or still pending, stops the run.
 */
async function foundByNonce(
  context: EvmContext,
  transaction: StepTransaction,
  sending: Sending,
  call: Call,
  what: string,
): Promise<string | undefined> {
  const { journal, provider, from } = context;
  const { nonce } = sending;
  const found = await findByNonce(
    provider,
    from,
    nonce,
    defined(sending.block, "a transfer's sending record names its block"),
  );
  if (found.state !== "unused" && found.tx !== undefined) {
    const data = sending.data ?? call.data;
    if (
      found.tx.to?.toLowerCase() !== call.to.toLowerCase() ||
      found.tx.data.toLowerCase() !== data.toLowerCase()
    ) {
      throw new VipError(ERRORS.NETWORK.EVM_TX.NONCE_USED_BY_OTHER, {
        nonce,
        from,
        hash: found.tx.hash,
        what,
        journal: journal.path,
      });
    }
    const { hash } = found.tx;
    await applyRecords(journal, transaction, {
      type: "sent",
      step: transaction.step,
      nonce,
      hash,
    });
    return hash;
  }
  if (found.state === "pending")
    throw new VipError(ERRORS.NETWORK.EVM_TX.NONCE_PENDING, { nonce, from });
  return undefined;
}

/** Waits for `hash`'s receipt and journals it as confirmed. */
async function confirm(
  context: EvmContext,
  transaction: StepTransaction,
  hash: string,
  what: string,
): Promise<string> {
  const receipt = await context.provider.waitForTransaction(
    hash,
    1,
    10 * 60_000,
  );
  if (receipt === null)
    throw new VipError(ERRORS.NETWORK.EVM_TX.EVM_TX_NOT_MINED, { what, hash });
  await applyRecords(context.journal, transaction, {
    type: "confirmed",
    step: transaction.step,
    hash,
    blockNumber: receipt.blockNumber,
    gasUsed: receipt.gasUsed.toString(),
    status: receipt.status ?? 0,
  });
  if (receipt.status !== 1) throw await evmTxFailed(context, hash);
  return hash;
}

/** `Tx failed <hash>`, with why when it can be told (see `minedRevertReason`). */
async function evmTxFailed(
  context: EvmContext,
  hash: string,
): Promise<VipError> {
  return new VipError(ERRORS.NETWORK.EVM_TX.EVM_TX_FAILED, {
    hash,
    why: await minedRevertReason(context.provider, hash),
  });
}

async function broadcast(
  context: EvmContext,
  transaction: StepTransaction,
  call: Call,
  what: string,
  nonce?: number,
): Promise<string> {
  const { journal, provider, signer, from } = context;
  const { step } = transaction;
  let gas: bigint;
  try {
    gas = await provider.estimateGas({ from, ...call });
  } catch (error) {
    throw refused(what, error);
  }
  const overrides = await transactionOverrides(provider, withMargin(gas));
  await ensureFunds(provider, from, maxCost(overrides) + call.value, what);
  const useNonce =
    nonce ?? (await provider.getTransactionCount(from, "pending"));
  await applyRecords(journal, transaction, {
    type: "sending",
    step,
    chainId: context.chainId.toString(),
    from,
    nonce: useNonce,
    to: call.to,
    data: call.data,
    value: call.value.toString(),
    block: await provider.getBlockNumber(),
  });
  try {
    const response = await signer.sendTransaction({
      ...call,
      ...overrides,
      nonce: useNonce,
      chainId: context.chainId,
    });
    await applyRecords(journal, transaction, {
      type: "sent",
      step,
      nonce: useNonce,
      hash: response.hash,
    });
    return response.hash;
  } catch (error) {
    // The send may have reached the node: the next run finds it by its nonce
    // rather than sending twice.
    const hint = isTransient(error) ? "it may have reached the node; " : "";
    throw new VipError(ERRORS.NETWORK.EVM_TX.EVM_SEND_FAILED, {
      what,
      reason: reasonOf(error),
      hint,
    });
  }
}
