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
import { applyRecords, type Journalled } from "../journal/apply-record.js";
import { currentRecord } from "../journal/earlier-records.js";
import { findByNonce } from "../journal/find-by-nonce.js";
import { Journal } from "../journal/journal.js";
import { nextAction } from "../journal/next-action.js";
import type { TransactionRecord } from "../journal/transaction-records.js";
import {
  type Sending,
  transactionStateOf,
} from "../journal/transaction-state.js";
import { isTransient } from "../network/retry.js";
import { ensureFunds } from "../signer/funds.js";

/** A finalization journals one transaction, in the shared records. */
type FinalizeRecord = TransactionRecord;

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

/** One call of `finalizeOnce`: what it sends, and where it journals it. */
interface FinalizeRun {
  score: VipScore;
  provider: Provider;
  from: string;
  stage: bigint;
  options: FinalizeOptions;
  call: FinalizeCall;
  journal: Journal<FinalizeRecord>;
  /** The finalization's transaction, in the state its journal leaves it. */
  transaction: Journalled;
  /** Whether a transaction found by nonce is a call of `calldata` to the contract. */
  sentAs: (calldata: string) => (to: string | null, data: string) => boolean;
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
  const journal = await Journal.open<FinalizeRecord>(
    journalFile,
    currentRecord,
  );
  const contract = (await score.getAddress()).toLowerCase();
  const run: FinalizeRun = {
    score,
    provider: defined(
      signer.provider,
      "the signer comes from a network connection, with its provider",
    ),
    from: await signer.getAddress(),
    stage,
    options,
    call: finalizeCall(score, stage, options.writeCount),
    journal,
    transaction: { state: transactionStateOf(journal.records) },
    sentAs: (calldata) => (to, data) =>
      to?.toLowerCase() === contract &&
      data.toLowerCase() === calldata.toLowerCase(),
  };
  const resumed = await resumeEarlier(run);
  if (resumed !== undefined) return resumed;
  // Send, unless the stage is already finalized (by another run or by hand).
  if ((await score.stages(stage)).isFinalized) return { resumed: false };
  return sendFinalization(run);
}

/**
 * What an earlier run left, by the journal's next action: a confirmed
 * finalization (returned), or one in flight that must not be sent again
 * (followed to its receipt). Undefined when this run is to send: nothing went
 * out, it was dropped, or it reverted.
 */
async function resumeEarlier(
  run: FinalizeRun,
): Promise<FinalizeResult | undefined> {
  const first = nextAction(run.transaction.state);
  if (first.action === "done") {
    const { hash } = first.confirmed;
    return {
      receipt: (await run.provider.getTransactionReceipt(hash)) ?? undefined,
      resumed: true,
    };
  }
  if (first.action === "check-nonce") await checkNonce(run, first.sending);
  const next = nextAction(run.transaction.state);
  if (next.action !== "wait-for-receipt") return undefined;
  const { hash, nonce } = next.sent;
  const receipt = await awaitReceipt(run.provider, hash, run.options);
  if (receipt !== undefined) return confirm(run, receipt, true);
  await applyRecords(run.journal, run.transaction, {
    type: "dropped",
    nonce,
    reason: `${hash} is no longer known to the node`,
  });
  return undefined;
}

/**
 * Sends the finalization after the preflight, journalled: `sending` before the
 * broadcast, `sent` after it, then its receipt (`confirmed`) or `dropped`.
 */
async function sendFinalization(run: FinalizeRun): Promise<FinalizeResult> {
  const { score, provider, from, stage, call, journal, transaction } = run;
  await preflight(score, from, stage, run.options.network);
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
  await applyRecords(journal, transaction, {
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
    if (tx === undefined || !run.sentAs(call.data)(tx.to, tx.data))
      throw sendFailed(stage, journal.path, error);
    hash = tx.hash;
  }
  await applyRecords(journal, transaction, { type: "sent", nonce, hash });
  const receipt = await awaitReceipt(provider, hash, run.options);
  if (receipt === undefined) {
    await applyRecords(journal, transaction, {
      type: "dropped",
      nonce,
      reason: `${hash} is no longer known to the node`,
    });
    throw new VipError(ERRORS.CONTRACT.FINALIZE.FINALIZE_DROPPED, {
      stage,
      hash,
    });
  }
  return confirm(run, receipt, false);
}

/**
 * Brings a send an earlier run journalled but did not see answered to sent
 * (its transaction found by nonce) or dropped (the nonce was never broadcast,
 * or went to another transaction); a nonce still pending is refused.
 */
async function checkNonce(run: FinalizeRun, sending: Sending): Promise<void> {
  const { provider, from, journal, transaction } = run;
  const found = await findByNonce(
    provider,
    from,
    sending.nonce,
    defined(sending.block, "a finalization journals its height with its nonce"),
  );
  const tx = found.state === "unused" ? undefined : found.tx;
  // Journals of versions before the fence name no calldata: they sent
  // finalizeStage(stage).
  const calldata =
    sending.data ?? finalizeCall(run.score, run.stage, undefined).data;
  if (tx !== undefined && run.sentAs(calldata)(tx.to, tx.data)) {
    await applyRecords(journal, transaction, {
      type: "sent",
      nonce: sending.nonce,
      hash: tx.hash,
    });
    return;
  }
  if (found.state === "pending") {
    throw new VipError(ERRORS.CONTRACT.FINALIZE.NONCE_PENDING, {
      nonce: sending.nonce,
      from,
      journal: journal.path,
    });
  }
  await applyRecords(journal, transaction, {
    type: "dropped",
    nonce: sending.nonce,
    reason:
      found.state === "unused"
        ? "never broadcast"
        : "used by another transaction",
  });
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
  run: FinalizeRun,
  receipt: TransactionReceipt,
  resumed: boolean,
): Promise<FinalizeResult> {
  await applyRecords(run.journal, run.transaction, {
    type: "confirmed",
    hash: receipt.hash,
    blockNumber: receipt.blockNumber,
    gasUsed: receipt.gasUsed.toString(),
    status: receipt.status ?? 0,
  });
  if (receipt.status !== 1)
    throw new VipError(ERRORS.CONTRACT.FINALIZE.FINALIZE_TX_FAILED, {
      hash: receipt.hash,
      stage: run.stage,
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
