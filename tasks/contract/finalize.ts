import { sleep } from "@nomicfoundation/hardhat-utils/lang";
import type { Overrides, Provider, Signer, TransactionReceipt } from "ethers";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { ERRORS } from "../error-catalog.js";
import { reasonOf, VipError, defined } from "../errors.js";
import {
  maxCost,
  refused,
  transactionOverrides,
  withMargin,
} from "./confirm.js";
import { preflight } from "./preflight.js";
import { decodeRevert } from "./revert.js";
import { findByNonce } from "../journal/find-by-nonce.js";
import { Journal } from "../journal/journal.js";
import { isTransient } from "../network/retry.js";
import { ensureFunds } from "../signer/funds.js";

/**
 * Written before the broadcast: a run killed after it finds the transaction
 * again by this nonce.
 */
interface SendingRecord {
  type: "sending";
  nonce: number;
  /**
   * The chain's height before the send: the nonce is looked for from here on.
   */
  block: number;
  at: string;
  /**
   * The call's calldata (absent in journals of earlier versions: then
   * `finalizeStage(stage)`'s): a fenced finalization's token may differ
   * between runs, and the transaction is found again by what it was.
   */
  data?: string;
}
interface SentRecord {
  type: "sent";
  nonce: number;
  hash: string;
}
interface ConfirmedRecord {
  type: "confirmed";
  hash: string;
  blockNumber: number;
  gasUsed: string;
  status: number;
}
/**
 * The journalled nonce was never broadcast, or went to another transaction: the
 * next run may send.
 */
interface UnsentRecord {
  type: "unsent";
  nonce: number;
  reason: string;
}
type FinalizeRecord =
  SendingRecord | SentRecord | ConfirmedRecord | UnsentRecord;

export interface FinalizeResult {
  /**
   * The finalization's receipt; undefined when the stage was found finalized by
   * another transaction.
   */
  receipt?: TransactionReceipt;
  /**
   * Whether this call found the transaction of an earlier, interrupted run
   * instead of sending one.
   */
  resumed: boolean;
}

export interface FinalizeOptions {
  /** The `--network` it runs on: refusals name complete commands for it. */
  network: string;
  /** How often a receipt is polled for, in ms. */
  pollMs?: number;
  /**
   * How long the transaction may stay unmined before this run stops (a later
   * run resumes), in ms.
   */
  receiptTimeoutMs?: number;
  /**
   * The stage's write count when its scores were proved: the finalization is
   * then `finalizeStageAt(stage, writeCount)`, which the contract refuses
   * (`StageChanged`) if anything wrote the stage since; without it,
   * `finalizeStage(stage)`.
   */
  writeCount?: bigint;
}

/** The finalization's call, in either form. */
interface FinalizeCall {
  /** `finalizeStage(15)` or `finalizeStageAt(15, 3)`, for messages. */
  name: string;
  data: string;
  estimate(): Promise<bigint>;
  send(overrides: Overrides): Promise<{ hash: string }>;
}

function finalizeCall(
  score: VipScore,
  stage: bigint,
  writeCount: bigint | undefined,
): FinalizeCall {
  if (writeCount === undefined)
    return {
      name: `finalizeStage(${stage})`,
      data: score.interface.encodeFunctionData("finalizeStage", [stage]),
      estimate: () => score.finalizeStage.estimateGas(stage),
      send: (overrides) => score.finalizeStage(stage, overrides),
    };
  return {
    name: `finalizeStageAt(${stage}, ${writeCount})`,
    data: score.interface.encodeFunctionData("finalizeStageAt", [
      stage,
      writeCount,
    ]),
    estimate: () => score.finalizeStageAt.estimateGas(stage, writeCount),
    send: (overrides) => score.finalizeStageAt(stage, writeCount, overrides),
  };
}

/**
 * Finalizes `stage` at most once, journalled: the nonce is recorded before the
 * broadcast and the hash after, so a run killed between the send and its
 * receipt finds its transaction again (by hash, else by nonce) and waits for it
 * instead of sending a second one. A stage the contract already shows finalized
 * is not sent again.
 */
export async function finalizeOnce(
  score: VipScore,
  signer: Signer,
  stage: bigint,
  journalFile: string,
  options: FinalizeOptions,
): Promise<FinalizeResult> {
  const provider = defined(
    signer.provider,
    "the signer comes from a network connection, with its provider",
  );
  const from = await signer.getAddress();
  const journal = await Journal.open<FinalizeRecord>(journalFile);
  const call = finalizeCall(score, stage, options.writeCount);
  const contract = (await score.getAddress()).toLowerCase();
  const sentAs = (calldata: string) => (to: string | null, data: string) =>
    to?.toLowerCase() === contract &&
    data.toLowerCase() === calldata.toLowerCase();

  // 1. What an earlier run left: a confirmed finalization, or one in flight
  // that must not be sent again.
  const last = journal.records.at(-1);
  if (last?.type === "confirmed" && last.status === 1) {
    return {
      receipt: (await provider.getTransactionReceipt(last.hash)) ?? undefined,
      resumed: true,
    };
  }
  const inFlight =
    last?.type === "sent"
      ? last
      : last?.type === "sending"
        ? await findSending(
            last,
            provider,
            from,
            sentAs(last.data ?? finalizeCall(score, stage, undefined).data),
            journal,
          )
        : undefined;
  if (inFlight !== undefined) {
    const receipt = await awaitReceipt(provider, inFlight.hash, options);
    if (receipt !== undefined) return confirm(journal, receipt, stage, true);
    await journal.append({
      type: "unsent",
      nonce: inFlight.nonce,
      reason: `${inFlight.hash} is no longer known to the node`,
    });
  }

  // 2. Send, unless the stage is already finalized (by another run or by hand).
  if ((await score.stages(stage)).isFinalized) return { resumed: false };
  await preflight(score, from, stage, options.network);
  let gas: bigint;
  try {
    gas = await call.estimate();
  } catch (error) {
    throw refused(call.name, error);
  }
  const overrides = await transactionOverrides(provider, withMargin(gas));
  await ensureFunds(provider, from, maxCost(overrides), call.name);
  const nonce = await provider.getTransactionCount(from, "pending");
  const block = await provider.getBlockNumber();
  await journal.append({
    type: "sending",
    nonce,
    block,
    at: new Date().toISOString(),
    data: call.data,
  });
  let hash: string;
  try {
    hash = (await call.send({ ...overrides, nonce })).hash;
  } catch (error) {
    // The answer may be lost while the transaction reached the node: look for
    // it by nonce before giving up.
    const found = isTransient(error)
      ? await findByNonce(provider, from, nonce, block)
      : undefined;
    const tx =
      found === undefined || found.state === "unused" ? undefined : found.tx;
    if (tx === undefined || !sentAs(call.data)(tx.to, tx.data))
      throw sendFailed(stage, journal.path, error);
    hash = tx.hash;
  }
  await journal.append({ type: "sent", nonce, hash });
  const receipt = await awaitReceipt(provider, hash, options);
  if (receipt === undefined) {
    await journal.append({
      type: "unsent",
      nonce,
      reason: `${hash} is no longer known to the node`,
    });
    throw new VipError(ERRORS.CONTRACT.FINALIZE.FINALIZE_DROPPED, {
      stage,
      hash,
    });
  }
  return confirm(journal, receipt, stage, false);
}

/**
 * The transaction of a send an earlier run journalled but did not see answered,
 * found by its nonce (and journalled as sent); undefined, journalled as unsent,
 * when the nonce was never broadcast or went to another transaction.
 */
async function findSending(
  sending: SendingRecord,
  provider: Provider,
  from: string,
  ours: (to: string | null, data: string) => boolean,
  journal: Journal<FinalizeRecord>,
): Promise<{ nonce: number; hash: string } | undefined> {
  const found = await findByNonce(provider, from, sending.nonce, sending.block);
  const tx = found.state === "unused" ? undefined : found.tx;
  if (tx !== undefined && ours(tx.to, tx.data)) {
    const inFlight = { nonce: sending.nonce, hash: tx.hash };
    await journal.append({ type: "sent", ...inFlight });
    return inFlight;
  }
  if (found.state === "pending") {
    throw new VipError(ERRORS.CONTRACT.FINALIZE.NONCE_PENDING, {
      nonce: sending.nonce,
      from,
      journal: journal.path,
    });
  }
  await journal.append({
    type: "unsent",
    nonce: sending.nonce,
    reason:
      found.state === "unused"
        ? "never broadcast"
        : "used by another transaction",
  });
  return undefined;
}

/**
 * The error of a finalization whose send failed and that was not found at the
 * node: the contract's revert when it is one, else the node's reason.
 */
function sendFailed(stage: bigint, journal: string, error: unknown): VipError {
  const revert = decodeRevert(error);
  return revert === undefined
    ? new VipError(
        ERRORS.CONTRACT.FINALIZE.FINALIZE_SEND_FAILED,
        { stage, journal, reason: reasonOf(error, "with code") },
        error,
      )
    : new VipError(
        ERRORS.CONTRACT.FINALIZE.FINALIZE_SEND_REVERTED,
        { stage, journal, ...revert },
        error,
      );
}

async function confirm(
  journal: Journal<FinalizeRecord>,
  receipt: TransactionReceipt,
  stage: bigint,
  resumed: boolean,
): Promise<FinalizeResult> {
  await journal.append({
    type: "confirmed",
    hash: receipt.hash,
    blockNumber: receipt.blockNumber,
    gasUsed: receipt.gasUsed.toString(),
    status: receipt.status ?? 0,
  });
  if (receipt.status !== 1)
    throw new VipError(ERRORS.CONTRACT.FINALIZE.FINALIZE_TX_FAILED, {
      hash: receipt.hash,
      stage,
    });
  return { receipt, resumed };
}

/**
 * The receipt of `hash`; undefined when the node no longer knows the
 * transaction (dropped or replaced).
 */
async function awaitReceipt(
  provider: Provider,
  hash: string,
  options: FinalizeOptions,
): Promise<TransactionReceipt | undefined> {
  const timeoutMs = options.receiptTimeoutMs ?? 600_000;
  const deadline = Date.now() + timeoutMs;
  for (let missing = 0; ;) {
    const receipt = await provider.getTransactionReceipt(hash);
    if (receipt !== null) return receipt;
    if ((await provider.getTransaction(hash)) === null && ++missing >= 3)
      return undefined;
    if (Date.now() > deadline) {
      throw new VipError(ERRORS.CONTRACT.FINALIZE.FINALIZE_NOT_MINED, {
        hash,
        seconds: timeoutMs / 1000,
      });
    }
    await sleep((options.pollMs ?? 500) / 1000);
  }
}
