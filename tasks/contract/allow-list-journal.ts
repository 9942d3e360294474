import { sleep } from "@nomicfoundation/hardhat-utils/lang";
import type { Overrides, Provider, TransactionReceipt } from "ethers";

import {
  maxCost,
  refused,
  transactionOverrides,
  withMargin,
} from "./confirm.js";
import { decodeRevert } from "./revert.js";
import { ERRORS } from "../error-catalog.js";
import { defined, reasonOf, VipError } from "../errors.js";
import { applyRecords, type Journalled } from "../journal/apply-record.js";
import { currentRecord } from "../journal/earlier-records.js";
import { findByNonce } from "../journal/find-by-nonce.js";
import { Journal } from "../journal/journal.js";
import { nextAction } from "../journal/next-action.js";
import type { TransactionRecord } from "../journal/transaction-records.js";
import {
  type Confirmed,
  type Sending,
  transactionStateOf,
} from "../journal/transaction-state.js";
import { isTransient } from "../network/retry.js";
import { ensureFunds } from "../signer/funds.js";

/**
 * An allow-list change journals its transactions in the shared records, one at
 * a time (a later change of the same address appends to the same journal); its
 * `sending` also names the signer whose nonce it is, so a run with another key
 * still finds it.
 */
type AllowListRecord =
  | (Extract<TransactionRecord, { type: "sending" }> & { from: string })
  | Exclude<TransactionRecord, { type: "sending" }>;

type SendingRecord = Extract<AllowListRecord, { type: "sending" }>;

/** The change's call: `addAllowList(a)` or `removeAllowList(a)`. */
export interface AllowListCall {
  /** `addAllowList(0x…)`, for messages. */
  name: string;
  /** The contract it calls. */
  to: string;
  data: string;
  estimate(): Promise<bigint>;
  send(overrides: Overrides): Promise<{ hash: string }>;
}

export interface AllowListTimings {
  /** How often a receipt is polled for, in ms. */
  pollMs?: number;
  /**
   * How long the transaction may stay unmined before this run stops (a later
   * run resumes), in ms.
   */
  receiptTimeoutMs?: number;
}

/** A mined transaction of the change, as its report names it. */
export interface MinedChange {
  hash: string;
  blockNumber: number;
  gasUsed: bigint;
  /** Whether an earlier run sent it (this one found it by its journal). */
  resumed: boolean;
}

/** One run of a change: what it sends, from whom, and its journal. */
interface ChangeRun {
  provider: Provider;
  from: string;
  call: AllowListCall;
  journal: Journal<AllowListRecord>;
  /** The change's last transaction, in the state its journal leaves it. */
  transaction: Journalled;
  timings: AllowListTimings;
}

/**
 * What the journal says an earlier run left, once followed: its transaction
 * confirmed by the journal alone (`done`: whether the allow list still shows
 * the change is for the caller to read) or followed to its receipt now
 * (`followed`), one that reverted, or nothing this run must wait for
 * (`none`: nothing sent, dropped, or never broadcast).
 */
type EarlierChange =
  | { state: "done" | "followed"; mined: MinedChange }
  | { state: "reverted"; hash: string }
  | { state: "none" };

/** Opens the change's journal in `file`, its transaction in the state it leaves. */
export async function openChange(
  file: string,
  provider: Provider,
  from: string,
  call: AllowListCall,
  timings: AllowListTimings,
): Promise<ChangeRun> {
  const journal = await Journal.open<AllowListRecord>(file, currentRecord);
  return {
    provider,
    from,
    call,
    journal,
    transaction: { state: transactionStateOf(journal.records) },
    timings,
  };
}

/**
 * Brings an earlier run's transaction to an end by the journal's next action,
 * sending nothing: done is returned as journalled; a `sending` is looked for
 * by its nonce (found: followed; never broadcast or taken by another
 * transaction: dropped); a `sent` is followed to its receipt (a revert is the
 * error `Tx failed`, gone from the node is dropped).
 */
export async function resumeChange(run: ChangeRun): Promise<EarlierChange> {
  const first = nextAction(run.transaction.state);
  switch (first.action) {
    case "done":
      return { state: "done", mined: minedOf(first.confirmed) };
    case "reverted":
      return { state: "reverted", hash: first.confirmed.hash };
    case "send":
    case "resend":
      return { state: "none" };
    case "check-nonce":
      await checkNonce(run, first.sending);
      break;
    case "wait-for-receipt":
      break;
  }
  const next = nextAction(run.transaction.state);
  if (next.action !== "wait-for-receipt") return { state: "none" };
  const mined = await follow(run, next.sent.hash, next.sent.nonce, true);
  return mined === undefined ? { state: "none" } : { state: "followed", mined };
}

/**
 * Sends the change, journalled: `sending` (the signer, nonce, height and
 * calldata) before the broadcast, `sent` (hash and nonce) after it, then its
 * receipt (`confirmed`) or `dropped`. A call the node refuses to estimate is
 * refused with nothing journalled or sent.
 */
export async function sendChange(run: ChangeRun): Promise<MinedChange> {
  const { provider, from, call, journal, transaction } = run;
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
    from,
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
    if (tx === undefined || !isCall(call, call.data, tx.to, tx.data))
      throw sendFailed(call.name, error);
    hash = tx.hash;
  }
  await applyRecords(journal, transaction, { type: "sent", nonce, hash });
  const mined = await follow(run, hash, nonce, false);
  if (mined === undefined)
    throw new VipError(ERRORS.CONTRACT.ALLOW_LIST.CHANGE_DROPPED, {
      what: call.name,
      hash,
      journal: journal.path,
    });
  return mined;
}

/** Whether a transaction found by nonce is a call of `calldata` to the contract. */
function isCall(
  call: AllowListCall,
  calldata: string,
  to: string | null,
  data: string,
): boolean {
  return (
    to?.toLowerCase() === call.to.toLowerCase() &&
    data.toLowerCase() === calldata.toLowerCase()
  );
}

/**
 * Brings a send an earlier run journalled but did not see answered to sent
 * (its transaction found by the nonce of the signer it names) or dropped (the
 * nonce was never broadcast, or went to another transaction); a nonce still
 * pending that the node cannot show is refused.
 */
async function checkNonce(run: ChangeRun, sending: Sending): Promise<void> {
  const { provider, call, journal, transaction } = run;
  const record = journal.records.findLast(
    (r): r is SendingRecord => r.type === "sending",
  );
  const from = record?.from ?? run.from;
  const found = await findByNonce(
    provider,
    from,
    sending.nonce,
    defined(sending.block, "an allow-list change journals its height"),
  );
  const tx = found.state === "unused" ? undefined : found.tx;
  if (
    tx !== undefined &&
    isCall(call, sending.data ?? call.data, tx.to, tx.data)
  ) {
    await applyRecords(journal, transaction, {
      type: "sent",
      nonce: sending.nonce,
      hash: tx.hash,
    });
    return;
  }
  if (found.state === "pending")
    throw new VipError(ERRORS.CONTRACT.ALLOW_LIST.CHANGE_NONCE_PENDING, {
      nonce: sending.nonce,
      from,
      journal: journal.path,
    });
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
 * Follows `hash` to its receipt and journals it: `confirmed` (a revert is
 * then the error `Tx failed`, as before journals), or `dropped` when the node
 * no longer knows it (undefined: it may be sent again).
 */
async function follow(
  run: ChangeRun,
  hash: string,
  nonce: number,
  resumed: boolean,
): Promise<MinedChange | undefined> {
  const { journal, transaction } = run;
  const receipt = await awaitReceipt(run, hash);
  if (receipt === undefined) {
    await applyRecords(journal, transaction, {
      type: "dropped",
      nonce,
      reason: `${hash} is no longer known to the node`,
    });
    return undefined;
  }
  await applyRecords(journal, transaction, {
    type: "confirmed",
    hash: receipt.hash,
    blockNumber: receipt.blockNumber,
    gasUsed: receipt.gasUsed.toString(),
    status: receipt.status ?? 0,
  });
  if (receipt.status !== 1)
    throw new VipError(ERRORS.CONTRACT.CALLS.TX_FAILED, { hash: receipt.hash });
  return {
    hash: receipt.hash,
    blockNumber: receipt.blockNumber,
    gasUsed: receipt.gasUsed,
    resumed,
  };
}

function minedOf(confirmed: Confirmed): MinedChange {
  return {
    hash: confirmed.hash,
    blockNumber: confirmed.blockNumber,
    gasUsed: confirmed.gasUsed,
    resumed: true,
  };
}

/**
 * The error of a change whose send failed and that was not found at the node,
 * as before journals: the contract's revert when it is one, else the node's
 * reason.
 */
function sendFailed(what: string, error: unknown): VipError {
  const revert = decodeRevert(error);
  return revert === undefined
    ? new VipError(
        ERRORS.CONTRACT.CALLS.SEND_FAILED,
        { what, reason: reasonOf(error, "with code") },
        error,
      )
    : new VipError(
        ERRORS.CONTRACT.CALLS.SEND_REVERTED,
        { what, ...revert },
        error,
      );
}

/**
 * The receipt of `hash`; undefined when the node no longer knows the
 * transaction (dropped or replaced).
 */
async function awaitReceipt(
  run: ChangeRun,
  hash: string,
): Promise<TransactionReceipt | undefined> {
  const { provider, timings } = run;
  const timeoutMs = timings.receiptTimeoutMs ?? 600_000;
  const deadline = Date.now() + timeoutMs;
  for (let missing = 0; ;) {
    const receipt = await provider.getTransactionReceipt(hash);
    if (receipt !== null) return receipt;
    if ((await provider.getTransaction(hash)) === null && ++missing >= 3)
      return undefined;
    if (Date.now() > deadline)
      throw new VipError(ERRORS.CONTRACT.ALLOW_LIST.CHANGE_NOT_MINED, {
        what: run.call.name,
        hash,
        seconds: timeoutMs / 1000,
        journal: run.journal.path,
      });
    await sleep((timings.pollMs ?? 500) / 1000);
  }
}
