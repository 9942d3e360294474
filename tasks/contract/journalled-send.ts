import { sleep } from "@nomicfoundation/hardhat-utils/lang";
import {
  type FunctionFragment,
  Interface,
  type Overrides,
  type Provider,
  type TransactionReceipt,
} from "ethers";

import {
  maxCost,
  refused,
  transactionOverrides,
  withMargin,
} from "./confirm.js";
import { describeRevert } from "./revert.js";
import { defined, type VipError } from "../errors.js";
import { applyRecords, type Journalled } from "../journal/apply-record.js";
import { currentRecord } from "../journal/earlier-records.js";
import { findByNonce } from "../journal/find-by-nonce.js";
import { Journal } from "../journal/journal.js";
import { nextAction } from "../journal/next-action.js";
import type { TransactionRecord } from "../journal/transaction-records.js";
import {
  type Confirmed,
  type Sending,
  type Sent,
  transactionStateOf,
} from "../journal/transaction-state.js";
import { minedRevertReason } from "../network/mined-revert.js";
import { isTransient } from "../network/retry.js";
import { ensureFunds } from "../signer/funds.js";

/**
 * One transaction sent at most once on the shared transaction records (a
 * stage's finalization, an allow-list change): `sending` before the broadcast,
 * `sent` after it, then its receipt (`confirmed`) or `dropped`. Its `sending`
 * names the signer whose nonce it is (journals of earlier versions' may not),
 * so a run with another key still finds it.
 */
type SendRecord =
  | (Extract<TransactionRecord, { type: "sending" }> & { from?: string })
  | Exclude<TransactionRecord, { type: "sending" }>;

/** The call a journalled send makes. */
export interface JournalledCall {
  /** `finalizeStage(15)`, `addAllowList(0x…)`: for messages. */
  name: string;
  /** The contract it calls. */
  to: string;
  data: string;
  estimate(): Promise<bigint>;
  send(overrides: Overrides): Promise<{ hash: string }>;
}

/**
 * A method of a contract that sends a transaction, as its TypeChain binding
 * types it (`score.finalizeStage`), taking `A`.
 */
interface SendingMethod<A extends unknown[]> {
  (...args: [...A, Overrides]): Promise<{ hash: string }>;
  fragment: FunctionFragment;
  estimateGas(...args: A): Promise<bigint>;
}

/**
 * The call of `method` with `args` on the contract at `to`, named as the
 * contract spells it (`finalizeStageAt(15, 3)`, `addAllowList(0x…)`).
 */
export function contractCall<
  A extends (bigint | string)[],
  M extends SendingMethod<A>,
>(to: string, method: M, ...args: A): JournalledCall {
  const { fragment } = method;
  return {
    name: `${fragment.name}(${args.join(", ")})`,
    to,
    data: Interface.from([fragment]).encodeFunctionData(fragment, args),
    estimate: () => method.estimateGas(...args),
    send: (overrides) => method(...args, overrides),
  };
}

export interface ReceiptTimings {
  /** How often a receipt is polled for, in ms. */
  pollMs?: number;
  /**
   * How long the transaction may stay unmined before this run stops (a later
   * run resumes), in ms.
   */
  receiptTimeoutMs?: number;
}

/**
 * The errors a journalled send raises, each the caller's own catalog entry
 * (a finalization's and an allow-list change's differ), made from the values
 * the send has for it.
 */
export interface SendErrors {
  /** A journalled nonce is pending at the node, its transaction unreadable. */
  noncePending(values: {
    nonce: number;
    from: string;
    journal: string;
  }): VipError;
  /**
   * The broadcast failed and the transaction was not found at the node
   * (`failureOf` tells a contract's revert from the node's reason).
   */
  sendFailed(error: unknown, journal: string): VipError;
  /** The node forgot the transaction before it was mined. */
  dropped(values: { hash: string; journal: string }): VipError;
  /** The transaction stayed unmined past the receipt timeout. */
  notMined(values: {
    hash: string;
    seconds: number;
    journal: string;
  }): VipError;
  /**
   * The transaction was mined, its receipt not a success; `why` ends the
   * message (see `minedRevertReason`).
   */
  txFailed(values: { hash: string; why: string }): VipError;
}

/** What a journalled send is: its call, its signer and its journal. */
interface SendSettings {
  provider: Provider;
  /** The signer this run sends with. */
  from: string;
  call: JournalledCall;
  timings: ReceiptTimings;
  errors: SendErrors;
  /** Whether `sending` names its signer (see `SendRecord`). */
  journalsSigner: boolean;
  /**
   * The calldata of a journalled `sending` that names none (journals of
   * earlier versions); the call's own when not given.
   */
  unjournalledData?: string;
}

/** A journalled send as its journal leaves it. */
export interface JournalledSend extends SendSettings {
  journal: Journal<SendRecord>;
  /** Its last transaction, in the state its journal leaves it. */
  transaction: Journalled;
}

/**
 * What an earlier run left, once followed: a transaction confirmed by the
 * journal alone (`done`, or `reverted`: the caller judges whether to send
 * again), one in flight followed to its receipt now (`followed`), or nothing
 * this run must wait for (`none`: nothing sent, dropped, or never broadcast).
 */
export type EarlierSend =
  | { state: "done" | "reverted"; confirmed: Confirmed }
  | { state: "followed"; receipt: TransactionReceipt }
  | { state: "none" };

/** Opens the send's journal in `file`, its transaction in the state it leaves. */
export async function openSend(
  file: string,
  settings: SendSettings,
): Promise<JournalledSend> {
  const journal = await Journal.open<SendRecord>(file, currentRecord);
  return {
    ...settings,
    journal,
    transaction: { state: transactionStateOf(journal.records) },
  };
}

/**
 * Brings an earlier run's transaction to an end by the journal's next action,
 * sending nothing: a confirmation is returned as journalled; a `sending` is
 * looked for by its nonce (found: followed; never broadcast or taken by
 * another transaction: dropped; pending and unreadable: refused); a `sent` is
 * followed to its receipt (gone from the node: dropped).
 */
export async function resumeSend(run: JournalledSend): Promise<EarlierSend> {
  const first = nextAction(run.transaction.state);
  switch (first.action) {
    case "done":
    case "reverted":
      return { state: first.action, confirmed: first.confirmed };
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
  const receipt = await follow(run, next.sent);
  return receipt === undefined
    ? { state: "none" }
    : { state: "followed", receipt };
}

/**
 * Sends the call, journalled: `sending` (the nonce, height and calldata, and
 * the signer where it is journalled) before the broadcast, `sent` after it,
 * then its receipt (`confirmed`) or `dropped` (an error: run again to send it
 * anew). A call the node refuses to estimate is refused with nothing
 * journalled or sent; a broadcast whose answer is lost is looked for by its
 * nonce before it is called failed.
 */
export async function sendJournalled(
  run: JournalledSend,
): Promise<TransactionReceipt> {
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
    ...(run.journalsSigner ? { from } : {}),
    nonce,
    block,
    at: new Date().toISOString(),
    data: call.data,
  });
  const hash = await broadcast(run, overrides, nonce, block);
  await applyRecords(journal, transaction, { type: "sent", nonce, hash });
  const receipt = await follow(run, { hash, nonce });
  if (receipt === undefined)
    throw run.errors.dropped({ hash, journal: journal.path });
  return receipt;
}

/**
 * Sends the call with `nonce`; its hash. The answer may be lost while the
 * transaction reached the node: it is then looked for by nonce before the
 * send is called failed.
 */
async function broadcast(
  run: JournalledSend,
  overrides: Overrides,
  nonce: number,
  block: number,
): Promise<string> {
  const { provider, from, call } = run;
  try {
    return (await call.send({ ...overrides, nonce })).hash;
  } catch (error) {
    const found = isTransient(error)
      ? await findByNonce(provider, from, nonce, block)
      : undefined;
    const tx =
      found === undefined || found.state === "unused" ? undefined : found.tx;
    if (tx === undefined || !isCall(run, call.data, tx.to, tx.data))
      throw run.errors.sendFailed(error, run.journal.path);
    return tx.hash;
  }
}

/** Whether a transaction found by nonce is a call of `calldata` to the contract. */
function isCall(
  run: JournalledSend,
  calldata: string,
  to: string | null,
  data: string,
): boolean {
  return (
    to?.toLowerCase() === run.call.to.toLowerCase() &&
    data.toLowerCase() === calldata.toLowerCase()
  );
}

/**
 * Brings a send an earlier run journalled but did not see answered to sent
 * (its transaction found by the nonce of the signer it names, else this
 * run's) or dropped (the nonce was never broadcast, or went to another
 * transaction); a nonce still pending that the node cannot show is refused.
 */
async function checkNonce(
  run: JournalledSend,
  sending: Sending,
): Promise<void> {
  const { provider, call, journal, transaction } = run;
  const record = journal.records.findLast(
    (r): r is Extract<SendRecord, { type: "sending" }> => r.type === "sending",
  );
  const from = record?.from ?? run.from;
  const found = await findByNonce(
    provider,
    from,
    sending.nonce,
    defined(
      sending.block,
      "a journalled send records its height with its nonce",
    ),
  );
  const tx = found.state === "unused" ? undefined : found.tx;
  const calldata = sending.data ?? run.unjournalledData ?? call.data;
  if (tx !== undefined && isCall(run, calldata, tx.to, tx.data)) {
    await applyRecords(journal, transaction, {
      type: "sent",
      nonce: sending.nonce,
      hash: tx.hash,
    });
    return;
  }
  if (found.state === "pending")
    throw run.errors.noncePending({
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
 * Follows `sent` to its receipt and journals it: `confirmed` (a receipt that
 * is not a success is then the caller's `txFailed`), or `dropped` when the
 * node no longer knows it (undefined: it may be sent again).
 */
async function follow(
  run: JournalledSend,
  sent: Pick<Sent, "hash" | "nonce">,
): Promise<TransactionReceipt | undefined> {
  const { journal, transaction } = run;
  const { hash, nonce } = sent;
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
    throw run.errors.txFailed({
      hash: receipt.hash,
      why: await minedRevertReason(run.provider, receipt.hash, describeRevert),
    });
  return receipt;
}

/**
 * The receipt of `hash`; undefined when the node no longer knows the
 * transaction (dropped or replaced). Past the receipt timeout the run stops
 * with the caller's `notMined`: a later run follows the same transaction.
 */
async function awaitReceipt(
  run: JournalledSend,
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
      throw run.errors.notMined({
        hash,
        seconds: timeoutMs / 1000,
        journal: run.journal.path,
      });
    await sleep((timings.pollMs ?? 500) / 1000);
  }
}
