import { ensureError } from "@nomicfoundation/hardhat-utils/error";
import { sleep } from "@nomicfoundation/hardhat-utils/lang";
import type { HardhatEthersProvider } from "@nomicfoundation/hardhat-ethers/types";
import { type Signer, toQuantity } from "ethers";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { transactionOverrides, withMargin } from "../contract/confirm.js";
import { describeRevert } from "../contract/revert.js";
import { firstLine, VipError, defined } from "../errors.js";
import { findByNonce } from "../journal/find-by-nonce.js";
import type { BatchRecord, Journal } from "../journal/journal.js";
import { batchesOf, type JournalledBatch } from "../journal/state.js";
import { isTransient } from "../network/retry.js";
import type { Output } from "../output.js";
import {
  batchEstimator,
  BatchPlanner,
  calibratedFirst,
  type GasLimits,
} from "./batches.js";
import { type EntryKind, NEW } from "./gas-model.js";
import { InFlightWindow, isPoolFull } from "./in-flight.js";
import type { Progress } from "./progress.js";
import { type MinedReceipt, type Outcome, ReceiptWatcher } from "./receipts.js";
import type { ScoreTable } from "./table.js";

export interface PushOptions {
  stage: bigint;
  limits: GasLimits;
  /**
   * Batches awaiting their receipts at once; 1 is send-and-wait; 0 (or unset):
   * adaptive (`InFlightWindow`), from two blocks' worth.
   */
  maxInFlight?: number;
  /** At most this many addresses per batch, whatever the gas allows. */
  maxBatchSize?: number;
  /**
   * Entries to leave out because the chain already holds their score
   * (`--skip-unchanged`).
   */
  unchanged?: (index: number) => boolean;
  /**
   * What each entry does on chain (`entryKinds`); without it every entry counts
   * as new, the dearest kind.
   */
  kinds?: Uint8Array;
  /** How often the node is asked for new blocks, in ms. */
  pollMs?: number;
  /**
   * How long a transaction may stay unmined before the run stops (it resumes
   * later), in ms.
   */
  receiptTimeoutMs?: number;
}

export interface PushContext {
  score: VipScore;
  signer: Signer;
  /**
   * Hardhat's provider: its `eth_sendTransaction` is signed with the configured
   * key, or by hardhat-ledger on the device.
   */
  provider: HardhatEthersProvider;
  table: ScoreTable;
  journal: Journal;
  out: Output;
  progress?: Progress;
  /**
   * Told of each batch confirmed by this run or an earlier one: its entries are
   * final (the read-back can start on them).
   */
  onConfirmed?: (start: number, end: number) => void;
  /**
   * Told once, when every batch has been sent and only receipts are awaited:
   * the node's pool then holds the rest of the push, so reads no longer delay
   * a send.
   */
  onAllSent?: () => void;
}

export interface PushReport {
  batches: number;
  sent: number;
  resumed: number;
  gasUsed: bigint;
  addresses: number;
  /**
   * Batches whose predicted gas was too low: they ran out of gas and were sent
   * again with an estimate.
   */
  outOfGas: number;
  /** The most batches this run kept awaiting their receipts at once. */
  maxInFlight: number;
}

/**
 * Pushes a score table to the open stage, resumably. Every step is journalled
 * before it is taken: the batch (file entries [start, end)), the nonce it goes
 * out with, the hash, the receipt. On start, batches a killed run left behind
 * are reconciled with the chain (mined, pending or dropped). Batches then go
 * out in order with explicit nonces, up to `maxInFlight` awaiting their
 * receipts. A batch is sized by the contract's cost model, not by the node: the
 * node estimates only the run's first batch (to check the model on this chain)
 * and a batch the model got wrong, which ran out of gas; that one is journalled
 * as dropped and sent again.
 */
export async function pushScores(
  ctx: PushContext,
  options: PushOptions,
): Promise<PushReport> {
  const { journal, provider, signer, score, table } = ctx;
  const from = await signer.getAddress();
  const contract = await score.getAddress();
  const startBlock = defined(journal.start, "journal.start").startBlock;
  const report: PushReport = {
    batches: 0,
    sent: 0,
    resumed: 0,
    gasUsed: 0n,
    addresses: 0,
    outOfGas: 0,
    maxInFlight: 0,
  };
  const known = batchesOf(journal.records);
  // A fixed --max-in-flight, else a window that follows the chain.
  const window =
    options.maxInFlight === undefined || options.maxInFlight === 0
      ? new InFlightWindow(options.limits.perBlock)
      : undefined;
  const windowSize = () => window?.size ?? options.maxInFlight ?? 1;
  /** Batches are ready but the window is full: the chain shows if it starves. */
  let heldBack = false;
  const label = (batch: JournalledBatch) =>
    `batch ${batch.batch + 1}, lines ${table.line(batch.start)}–${table.line(batch.end - 1)}`;

  const estimate = batchEstimator(score, options.stage, table);
  const kinds = options.kinds;
  const kindOf = (i: number): EntryKind =>
    kinds === undefined ? NEW : (kinds[i] as EntryKind);
  const planner = new BatchPlanner(
    table,
    options.limits,
    kindOf,
    options.maxBatchSize,
    options.unchanged,
  );
  /**
   * The model's gas for batches sent by this run, to check against their
   * receipts.
   */
  const predicted = new Map<number, bigint>();
  // A transaction found by nonce is this push's when it calls
  // updateScores(stage, …) on the contract: the selector and the stage word
  // open its calldata.
  const callPrefix = score.interface
    .encodeFunctionData("updateScores", [options.stage, [], []])
    .slice(0, 2 + 8 + 64);
  const ours = (data: string, to: string | null) =>
    to?.toLowerCase() === contract.toLowerCase() && data.startsWith(callPrefix);

  const dropped = async (batch: JournalledBatch, reason: string) => {
    await journal.append({ type: "dropped", batch: batch.batch, reason });
    batch.state = { status: "dropped" };
  };

  /**
   * Whether a batch whose receipt failed ran out of its predicted gas: the node
   * now estimates it above the gas limit it was sent with. Then it is
   * journalled as dropped, to be sent again with the estimate.
   */
  const ranOutOfGas = async (
    batch: JournalledBatch,
    hash: string,
    gasUsed: bigint,
  ): Promise<boolean> => {
    const sentWith = (await provider.getTransaction(hash))?.gasLimit;
    let estimated: bigint;
    try {
      estimated = await estimate(planner.indexes(batch.start, batch.end));
    } catch {
      return false; // the contract refuses it now: not a matter of gas
    }
    if (sentWith === undefined || estimated <= sentWith) return false;
    const expected = predicted.get(batch.batch);
    if (expected !== undefined) planner.observe(expected, estimated);
    report.outOfGas++;
    ctx.out.warn(
      `batch ${batch.batch + 1} ran out of gas (${gasUsed} of ${sentWith}; the node estimates ${estimated}): sending it again`,
    );
    await dropped(
      batch,
      `ran out of gas: used ${gasUsed} of ${sentWith}, estimated ${estimated}`,
    );
    return true;
  };

  /**
   * A receipt whose status is not success: sent again if it ran out of gas,
   * else the contract refused it and the run stops.
   */
  const failed = async (
    batch: JournalledBatch,
    receipt: MinedReceipt,
  ): Promise<void> => {
    if (!(await ranOutOfGas(batch, receipt.hash, receipt.gasUsed)))
      throw new VipError(`Tx failed ${receipt.hash} (${label(batch)})`);
  };

  const settle = async (
    batch: JournalledBatch,
    outcome: Outcome,
  ): Promise<void> => {
    if ("dropped" in outcome) return dropped(batch, outcome.dropped);
    const receipt = outcome.mined;
    await journal.append({
      type: "confirmed",
      batch: batch.batch,
      hash: receipt.hash,
      blockNumber: receipt.blockNumber,
      gasUsed: receipt.gasUsed.toString(),
      status: receipt.status,
    });
    batch.state = {
      status: "confirmed",
      hash: receipt.hash,
      blockNumber: receipt.blockNumber,
      gasUsed: receipt.gasUsed,
      success: receipt.status === 1,
    };
    if (receipt.status !== 1) return failed(batch, receipt);
    const expected = predicted.get(batch.batch);
    if (expected !== undefined) planner.observe(expected, receipt.gasUsed);
    report.gasUsed += receipt.gasUsed;
    report.addresses += batch.end - batch.start;
    report.batches++;
    ctx.progress?.update({
      addresses: report.addresses,
      batches: report.batches,
      gasUsed: report.gasUsed,
    });
    ctx.onConfirmed?.(batch.start, batch.end);
  };

  /**
   * Brings a batch that a killed run left sending to sent (or dropped), by its
   * nonce.
   */
  const reconcile = async (batch: JournalledBatch): Promise<void> => {
    if (batch.state.status !== "sending") return;
    const found = await findByNonce(
      provider,
      from,
      batch.state.nonce,
      startBlock,
    );
    if (found.state === "unused")
      return dropped(batch, `nonce ${batch.state.nonce} was never broadcast`);
    if (found.tx === undefined)
      return dropped(
        batch,
        `nonce ${batch.state.nonce} is pending but its transaction cannot be found`,
      );
    if (!ours(found.tx.data, found.tx.to))
      return dropped(
        batch,
        `nonce ${batch.state.nonce} was used by another transaction`,
      );
    await journal.append({
      type: "sent",
      batch: batch.batch,
      nonce: batch.state.nonce,
      hash: found.tx.hash,
    });
    batch.state = {
      status: "sent",
      nonce: batch.state.nonce,
      hash: found.tx.hash,
    };
  };

  // Fees move slowly against a batch's lifetime: fetched at most every 2 s, not
  // for every batch.
  let feeCache: { at: number; fees: Record<string, string> } | undefined;
  const fees = async (): Promise<Record<string, string>> => {
    if (feeCache === undefined || Date.now() - feeCache.at > 2_000) {
      const overrides = await transactionOverrides(provider, 0n);
      const fields: Record<string, string> = {};
      for (const key of [
        "maxFeePerGas",
        "maxPriorityFeePerGas",
        "gasPrice",
      ] as const) {
        const value = overrides[key];
        if (value !== undefined && value !== null)
          fields[key] = toQuantity(value);
      }
      feeCache = { at: Date.now(), fees: fields };
    }
    return feeCache.fees;
  };

  let poolWaits = 0;
  /**
   * Sends `indexes` as `batch` with `nonce`; a send whose answer was lost is
   * found by its nonce, not resent.
   */
  const broadcast = async (
    batch: JournalledBatch,
    indexes: number[],
    nonce: number,
    gasLimit: bigint,
    decided?: BatchRecord,
  ): Promise<string> => {
    await journal.append(...(decided === undefined ? [] : [decided]), {
      type: "sending",
      batch: batch.batch,
      nonce,
    });
    batch.state = { status: "sending", nonce };
    const data = score.interface.encodeFunctionData("updateScores", [
      options.stage,
      indexes.map((i) => table.addressHex(i)),
      indexes.map((i) => table.score(i)),
    ]);
    // Through Hardhat's `eth_sendTransaction`: it signs with the configured
    // key, or hardhat-ledger asks the device, so both paths send the same fully
    // specified transaction, and no lookup follows the send.
    const request = {
      from,
      to: contract,
      data,
      nonce: toQuantity(nonce),
      gas: toQuantity(gasLimit),
      ...(await fees()),
    };
    for (let attempt = 1; ; attempt++) {
      try {
        return (await provider.send("eth_sendTransaction", [
          request,
        ])) as string;
      } catch (error) {
        if (isPoolFull(error) && poolWaits < MAX_POOL_WAITS) {
          // Too many pending for the node: a smaller window, and this batch
          // goes once a receipt frees a place (its nonce is still the next).
          poolWaits++;
          window?.refused();
          if (inFlight.size > 0) await Promise.race(inFlight);
          else await sleep(0.5);
          attempt--;
          continue;
        }
        const maybeArrived =
          isTransient(error) ||
          /already known|known transaction|nonce too low|replacement/i.test(
            String(error),
          );
        if (!maybeArrived)
          throw new VipError(
            `batch ${batch.batch + 1} was refused when sent: ${describeRevert(error) ?? brief(error)}`,
          );
        const found = await findByNonce(provider, from, nonce, startBlock);
        if (
          found.state !== "unused" &&
          found.tx !== undefined &&
          ours(found.tx.data, found.tx.to)
        )
          return found.tx.hash;
        if (attempt >= 6) {
          throw new VipError(
            `batch ${batch.batch + 1} could not be sent after ${attempt} attempts (${brief(error)}): run the same command again to resume`,
          );
        }
        ctx.out.warn(
          `sending batch ${batch.batch + 1}: ${brief(error)}; it did not reach the node, sending again`,
        );
        await sleep(0.25 * 2 ** attempt);
      }
    }
  };

  const watcher = await ReceiptWatcher.start(provider, {
    pollMs: options.pollMs,
    timeoutMs: options.receiptTimeoutMs,
    onBlock: (block) => window?.observe({ ...block, heldBack }),
  });
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  const retryQueue: JournalledBatch[] = [];
  /**
   * Follows a sent batch to its receipt; a dropped one goes back to the queue.
   */
  const track = (batch: JournalledBatch, hash: string) => {
    const tracked: Promise<void> = watcher
      .wait(hash, label(batch))
      .then((outcome) => settle(batch, outcome))
      .then(() => {
        if (batch.state.status === "dropped") retryQueue.push(batch);
      })
      .catch((error) => {
        failure ??= error;
      })
      .finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };

  try {
    // 1. What earlier runs confirmed, then what a killed run left in flight (followed while new batches go out).
    for (const batch of known) {
      if (batch.state.status === "confirmed" && batch.state.success) {
        report.addresses += batch.end - batch.start;
        report.gasUsed += batch.state.gasUsed;
        report.batches++;
        ctx.onConfirmed?.(batch.start, batch.end);
      }
    }
    // A failed receipt a killed run journalled but did not get to judge: one
    // that ran out of gas is sent again.
    for (const batch of known) {
      const { state } = batch;
      if (state.status === "confirmed" && !state.success)
        await ranOutOfGas(batch, state.hash, state.gasUsed);
    }
    for (const batch of known)
      if (batch.state.status === "sending") await reconcile(batch);
    for (const batch of known) {
      if (batch.state.status === "sent") {
        report.resumed++;
        track(batch, batch.state.hash);
      }
    }
    ctx.progress?.update({
      addresses: report.addresses,
      batches: report.batches,
      gasUsed: report.gasUsed,
    });

    // 2. Send: first batches that were decided but not confirmed, then new ones to the end of the file.
    retryQueue.push(
      ...known.filter(
        (b) => b.state.status === "planned" || b.state.status === "dropped",
      ),
    );
    let nextStart =
      known.length === 0
        ? 0
        : defined(known[known.length - 1], "known[known.length - 1]").end;
    let nonce = await provider.getTransactionCount(from, "pending");
    let calibrated = false;
    let allSent = false;

    const nextBatch = async (): Promise<
      | { batch: JournalledBatch; indexes: number[]; gasLimit: bigint }
      | undefined
    > => {
      const resend = retryQueue.shift();
      if (resend !== undefined) {
        // Sent again with the node's estimate: the model's prediction may be
        // what failed it.
        const indexes = planner.indexes(resend.start, resend.end);
        if (indexes.length === 0) return nextBatch();
        const estimated = await estimate(indexes);
        if (estimated > options.limits.hardLimit) {
          throw new VipError(
            `${label(resend)} needs ${estimated} gas by the node's estimate, over the ${options.limits.hardLimit} one transaction may use: the gas model does not fit this chain`,
          );
        }
        const margin = withMargin(estimated);
        return {
          batch: resend,
          indexes,
          gasLimit:
            margin < options.limits.hardLimit
              ? margin
              : options.limits.hardLimit,
        };
      }
      const sized = calibrated
        ? planner.next(nextStart)
        : await calibratedFirst(planner, estimate, nextStart);
      calibrated = true;
      if (sized === undefined) return undefined;
      const batch: JournalledBatch = {
        batch: known.length,
        start: sized.start,
        end: sized.end,
        state: { status: "planned" },
      };
      known.push(batch);
      predicted.set(batch.batch, sized.gas);
      nextStart = sized.end;
      return { batch, indexes: sized.indexes, gasLimit: sized.gasLimit };
    };

    for (;;) {
      while (inFlight.size >= windowSize() && failure === undefined) {
        heldBack = true;
        await Promise.race(inFlight);
      }
      heldBack = false;
      if (failure !== undefined) break;
      const next = await nextBatch();
      if (next === undefined) {
        if (!allSent) {
          allSent = true;
          ctx.onAllSent?.();
        }
        if (inFlight.size === 0 && retryQueue.length === 0) break;
        if (inFlight.size > 0) await Promise.race(inFlight);
        continue;
      }
      const { batch, indexes, gasLimit } = next;
      const decided: BatchRecord | undefined =
        batch.state.status === "planned" &&
        !journal.records.some(
          (r) => r.type === "batch" && r.batch === batch.batch,
        )
          ? {
              type: "batch",
              batch: batch.batch,
              start: batch.start,
              end: batch.end,
              gasLimit: gasLimit.toString(),
            }
          : undefined;
      const hash = await broadcast(batch, indexes, nonce, gasLimit, decided);
      await journal.append({ type: "sent", batch: batch.batch, nonce, hash });
      batch.state = { status: "sent", nonce, hash };
      nonce++;
      report.sent++;
      track(batch, hash);
      report.maxInFlight = Math.max(report.maxInFlight, inFlight.size);
    }
  } catch (error) {
    failure ??= error;
  } finally {
    await Promise.allSettled(inFlight);
    watcher.stop();
    await journal.flush();
  }
  if (failure !== undefined) {
    // What a send or receipt raised: always an Error, which ensureError proves
    // before rethrowing.
    ensureError(failure);
    throw failure;
  }
  return report;
}

/** Refusals for a full pool waited out in one run before it stops. */
const MAX_POOL_WAITS = 100;

function brief(error: unknown): string {
  return firstLine(error).slice(0, 200);
}
