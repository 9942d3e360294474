import type {
  ContractTransactionReceipt,
  ContractTransactionResponse,
  Overrides,
  Provider,
} from "ethers";

import { ERRORS } from "../error-catalog.js";
import { reasonOf, VipError } from "../errors.js";
import { decodeRevert, describeRevert, type Revert } from "./revert.js";
import { minedRevertReason } from "../network/mined-revert.js";
import { ensureFunds } from "../signer/funds.js";

/** The gas limit sent: the estimate plus 20%. */
export function withMargin(estimate: bigint): bigint {
  return (estimate * 120n) / 100n;
}

/**
 * Every field of a transaction that a local signer (a Ledger) needs and would
 * otherwise leave to the node: the gas limit and the fees (EIP-1559 where the
 * chain has a base fee, a gas price otherwise).
 */
export async function transactionOverrides(
  provider: Provider,
  gasLimit: bigint,
): Promise<Overrides> {
  const fees = await provider.getFeeData();
  if (fees.maxFeePerGas !== null && fees.maxPriorityFeePerGas !== null) {
    return {
      gasLimit,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    };
  }
  return { gasLimit, gasPrice: fees.gasPrice ?? undefined };
}

/**
 * The most a transaction with these overrides can cost: its gas limit at its
 * highest fee per gas.
 */
export function maxCost(overrides: Overrides): bigint {
  const fee = BigInt(overrides.maxFeePerGas ?? overrides.gasPrice ?? 0);
  return BigInt(overrides.gasLimit ?? 0) * fee;
}

/**
 * Estimates, checks that `from` can pay, sends with explicit gas and fees (a
 * Ledger signs locally and needs them), and waits for the receipt. A call the
 * node refuses names the contract's revert reason, and nothing is sent; a
 * receipt whose status is not success is the error `Tx failed <hash>`
 * (ERRORS.CONTRACT.CALLS.TX_FAILED).
 */
export async function estimateSendAndConfirm(
  what: string,
  provider: Provider,
  from: string,
  estimate: () => Promise<bigint>,
  send: (overrides: Overrides) => Promise<ContractTransactionResponse>,
): Promise<ContractTransactionReceipt> {
  let gas: bigint;
  try {
    gas = await estimate();
  } catch (error) {
    throw refused(what, error);
  }
  const overrides = await transactionOverrides(provider, withMargin(gas));
  await ensureFunds(provider, from, maxCost(overrides), what);
  return sendAndConfirm(what, () => send(overrides));
}

/**
 * Sends through `send` (which sets its own gas limit) and waits for the
 * receipt; failures as above.
 */
export async function sendAndConfirm(
  what: string,
  send: () => Promise<ContractTransactionResponse>,
): Promise<ContractTransactionReceipt> {
  let tx: ContractTransactionResponse;
  try {
    tx = await send();
  } catch (error) {
    // Unlike a refused estimate, a failed send may have reached the node: do
    // not claim nothing was sent.
    throw sendFailed(what, error);
  }
  let receipt: ContractTransactionReceipt | null;
  try {
    receipt = await tx.wait();
  } catch (error) {
    const revert = decodeRevert(error);
    if (revert !== undefined)
      throw new VipError(
        ERRORS.CONTRACT.CALLS.TX_REVERTED,
        { hash: tx.hash, ...revert },
        error,
      );
    throw await txFailed(tx, error);
  }
  if (receipt === null || receipt.status !== 1) throw await txFailed(tx);
  return receipt;
}

/** `Tx failed <hash>`, with why when it can be told (see `minedRevertReason`). */
async function txFailed(
  tx: ContractTransactionResponse,
  cause?: unknown,
): Promise<VipError> {
  const why = await minedRevertReason(tx.provider, tx.hash, describeRevert);
  return new VipError(
    ERRORS.CONTRACT.CALLS.TX_FAILED,
    { hash: tx.hash, why },
    cause,
  );
}

/**
 * An error for a call the node refused before sending (estimate or send): the
 * contract's revert (ERRORS.CONTRACT.CALLS.REFUSED_REVERT, its name in
 * `params.revert`) when it is one, else the node's reason.
 */
export function refused(what: string, error: unknown): VipError {
  return callFailure(
    what,
    error,
    ERRORS.CONTRACT.CALLS.REFUSED,
    ERRORS.CONTRACT.CALLS.REFUSED_REVERT,
  );
}

/**
 * An error for a send that failed, which may have reached the node: the
 * contract's revert (ERRORS.CONTRACT.CALLS.SEND_REVERTED) when it is one, else
 * the node's reason (SEND_FAILED).
 */
export function sendFailed(what: string, error: unknown): VipError {
  return callFailure(
    what,
    error,
    ERRORS.CONTRACT.CALLS.SEND_FAILED,
    ERRORS.CONTRACT.CALLS.SEND_REVERTED,
  );
}

type Calls = typeof ERRORS.CONTRACT.CALLS;

/** The failure of the call `what`, by one of the pairs above. */
function callFailure(
  what: string,
  error: unknown,
  failed: Calls["REFUSED"] | Calls["SEND_FAILED"],
  reverted: Calls["REFUSED_REVERT"] | Calls["SEND_REVERTED"],
): VipError {
  return failureOf(
    error,
    (reason) => new VipError(failed, { what, reason }, error),
    (revert) => new VipError(reverted, { what, ...revert }, error),
  );
}

/**
 * The error a failed call's `error` becomes: `reverted`'s when it carries a
 * revert of the scoring contract (decoded: its name and arguments), else
 * `failed`'s with the node's reason (its first line, with its code).
 */
export function failureOf(
  error: unknown,
  failed: (reason: string) => VipError,
  reverted: (revert: Revert) => VipError,
): VipError {
  const revert = decodeRevert(error);
  return revert === undefined
    ? failed(reasonOf(error, "with code"))
    : reverted(revert);
}
