import type { Provider, Signer, TransactionReceipt } from "ethers";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { transactionOverrides, withMargin } from "../contract/confirm.js";
import { describeRevert } from "../contract/revert.js";
import { firstLine, VipError } from "../errors.js";
import { findByNonce } from "../journal/find-by-nonce.js";
import type { BatchRecord, Journal } from "../journal/journal.js";
import { batchesOf, type JournalledBatch } from "../journal/state.js";
import { isTransient } from "../network/retry.js";
import type { Output } from "../output.js";
import { batchEstimator, BatchSizer, type GasLimits, type SizedBatch } from "./batches.js";
import type { Progress } from "./progress.js";
import type { ScoreTable } from "./table.js";

export interface PushOptions {
  stage: bigint;
  limits: GasLimits;
  /** Batches awaiting their receipts at once; 1 is send-and-wait. */
  maxInFlight: number;
  /** At most this many addresses per batch, whatever the gas allows. */
  maxBatchSize?: number;
  /** Entries to leave out because the chain already holds their score (`--skip-unchanged`). */
  unchanged?: (index: number) => boolean;
  /** How often a receipt is polled for, in ms. */
  pollMs?: number;
  /** How long a transaction may stay unmined before the run stops (it resumes later), in ms. */
  receiptTimeoutMs?: number;
}

export interface PushContext {
  score: VipScore;
  signer: Signer;
  provider: Provider;
  table: ScoreTable;
  journal: Journal;
  out: Output;
  progress?: Progress;
}

export interface PushReport {
  batches: number;
  sent: number;
  resumed: number;
  gasUsed: bigint;
  addresses: number;
}

/**
 * Pushes a score table to the open stage, resumably. Every step is journalled before it is taken: the batch
 * (file entries [start, end)), the nonce it goes out with, the hash, the receipt. On start, batches a killed
 * run left behind are reconciled with the chain (mined, pending or dropped). Batches then go out in order
 * with explicit nonces, up to `maxInFlight` awaiting their receipts; a batch is sized from the last one's
 * gas per entry and estimated before it is sent.
 */
export async function pushScores(ctx: PushContext, options: PushOptions): Promise<PushReport> {
  const { journal, provider, signer, score, table } = ctx;
  const from = await signer.getAddress();
  const contract = await score.getAddress();
  const startBlock = journal.start!.startBlock;
  const report: PushReport = { batches: 0, sent: 0, resumed: 0, gasUsed: 0n, addresses: 0 };
  const known = batchesOf(journal.records);

  const estimate = batchEstimator(score, options.stage, table);
  const sizer = new BatchSizer(estimate, options.limits, table, options.maxBatchSize, options.unchanged);
  // A transaction found by nonce is this push's when it calls updateScores(stage, …) on the contract: the
  // selector and the stage word open its calldata.
  const callPrefix = score.interface.encodeFunctionData("updateScores", [options.stage, [], []]).slice(0, 2 + 8 + 64);
  const ours = (data: string, to: string | null) => to?.toLowerCase() === contract.toLowerCase() && data.startsWith(callPrefix);

  const confirmed = async (batch: JournalledBatch, receipt: TransactionReceipt) => {
    await journal.append({ type: "confirmed", batch: batch.batch, hash: receipt.hash, blockNumber: receipt.blockNumber, gasUsed: receipt.gasUsed.toString(), status: receipt.status ?? 0 });
    batch.state = { status: "confirmed", hash: receipt.hash, blockNumber: receipt.blockNumber, gasUsed: receipt.gasUsed, success: receipt.status === 1 };
    if (receipt.status !== 1) throw new VipError(`Tx failed ${receipt.hash} (batch ${batch.batch + 1}, lines ${table.line(batch.start)}–${table.line(batch.end - 1)})`);
    report.gasUsed += receipt.gasUsed;
    report.addresses += batch.end - batch.start;
    report.batches++;
    ctx.progress?.update({ addresses: report.addresses, batches: report.batches, gasUsed: report.gasUsed });
  };

  const dropped = async (batch: JournalledBatch, reason: string) => {
    await journal.append({ type: "dropped", batch: batch.batch, reason });
    batch.state = { status: "dropped" };
  };

  /** Waits for `hash` to be mined; a transaction the node forgets is dropped (and sent again). */
  const awaitReceipt = async (batch: JournalledBatch, hash: string): Promise<void> => {
    const timeoutMs = options.receiptTimeoutMs ?? 600_000;
    const deadline = Date.now() + timeoutMs;
    let missing = 0;
    for (;;) {
      const receipt = await provider.getTransactionReceipt(hash);
      if (receipt !== null) return confirmed(batch, receipt);
      if ((await provider.getTransaction(hash)) === null && ++missing >= 3) {
        return dropped(batch, `${hash} is no longer known to the node`);
      }
      if (Date.now() > deadline) {
        throw new VipError(`${hash} (batch ${batch.batch + 1}) was not mined within ${timeoutMs / 1000} s: run the same command again to resume`);
      }
      await sleep(options.pollMs ?? 250);
    }
  };

  /** Brings a batch that a killed run left sending or sent to a final state. */
  const reconcile = async (batch: JournalledBatch): Promise<void> => {
    if (batch.state.status === "sending") {
      const found = await findByNonce(provider, from, batch.state.nonce, startBlock);
      if (found.state === "unused") return dropped(batch, `nonce ${batch.state.nonce} was never broadcast`);
      if (found.tx === undefined) return dropped(batch, `nonce ${batch.state.nonce} is pending but its transaction cannot be found`);
      if (!ours(found.tx.data, found.tx.to)) return dropped(batch, `nonce ${batch.state.nonce} was used by another transaction`);
      await journal.append({ type: "sent", batch: batch.batch, nonce: batch.state.nonce, hash: found.tx.hash });
      batch.state = { status: "sent", nonce: batch.state.nonce, hash: found.tx.hash };
    }
    if (batch.state.status === "sent") {
      report.resumed++;
      return awaitReceipt(batch, batch.state.hash);
    }
  };

  /** Sends `indexes` as `batch` with `nonce`; a send whose answer was lost is found by its nonce, not resent. */
  const broadcast = async (batch: JournalledBatch, indexes: number[], nonce: number, gasLimit: bigint, decided?: BatchRecord): Promise<string> => {
    await journal.append(...(decided === undefined ? [] : [decided]), { type: "sending", batch: batch.batch, nonce });
    batch.state = { status: "sending", nonce };
    const overrides = { nonce, ...(await fees(gasLimit)) };
    const addresses = indexes.map((i) => table.addressHex(i));
    const amounts = indexes.map((i) => table.score(i));
    for (let attempt = 1; ; attempt++) {
      try {
        const tx = await score.updateScores(options.stage, addresses, amounts, overrides);
        return tx.hash;
      } catch (error) {
        const maybeArrived = isTransient(error) || /already known|known transaction|nonce too low|replacement/i.test(String(error));
        if (!maybeArrived) throw new VipError(`batch ${batch.batch + 1} was refused when sent: ${describeRevert(error) ?? brief(error)}`);
        const found = await findByNonce(provider, from, nonce, startBlock);
        if (found.state !== "unused" && found.tx !== undefined && ours(found.tx.data, found.tx.to)) return found.tx.hash;
        if (attempt >= 6) {
          throw new VipError(`batch ${batch.batch + 1} could not be sent after ${attempt} attempts (${brief(error)}): run the same command again to resume`);
        }
        ctx.out.warn(`sending batch ${batch.batch + 1}: ${brief(error)}; it did not reach the node, sending again`);
        await sleep(250 * 2 ** attempt);
      }
    }
  };

  // Fees move slowly against a batch's lifetime: fetched at most every 2 s, not for every batch.
  let feeCache: { at: number; overrides: Awaited<ReturnType<typeof transactionOverrides>> } | undefined;
  const fees = async (gasLimit: bigint) => {
    if (feeCache === undefined || Date.now() - feeCache.at > 2_000) feeCache = { at: Date.now(), overrides: await transactionOverrides(provider, gasLimit) };
    return { ...feeCache.overrides, gasLimit };
  };

  // 1. What earlier runs confirmed, then what a killed run left in flight (`confirmed` counts those).
  for (const batch of known) {
    if (batch.state.status === "confirmed" && batch.state.success) {
      report.addresses += batch.end - batch.start;
      report.gasUsed += batch.state.gasUsed;
      report.batches++;
    }
  }
  for (const batch of known) if (batch.state.status === "sending" || batch.state.status === "sent") await reconcile(batch);
  ctx.progress?.update({ addresses: report.addresses, batches: report.batches, gasUsed: report.gasUsed });

  // 2. Send: first batches that were decided but not confirmed, then new ones to the end of the file.
  const retryQueue = known.filter((b) => b.state.status === "planned" || b.state.status === "dropped");
  let nextStart = known.length === 0 ? 0 : known[known.length - 1]!.end;
  let nonce = await provider.getTransactionCount(from, "pending");
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;

  // The next new batch is sized (estimated) while the current one is being sent.
  let upcoming: Promise<SizedBatch | undefined> | undefined;
  const nextBatch = async (): Promise<{ batch: JournalledBatch; indexes: number[]; gas: bigint } | undefined> => {
    const resend = retryQueue.shift();
    if (resend !== undefined) {
      const indexes = sizer.indexes(resend.start, resend.end);
      return indexes.length === 0 ? nextBatch() : { batch: resend, indexes, gas: await estimate(indexes) };
    }
    const sized = await (upcoming ?? sizer.next(nextStart));
    upcoming = undefined;
    if (sized === undefined) return undefined;
    const batch: JournalledBatch = { batch: known.length, start: sized.start, end: sized.end, state: { status: "planned" } };
    known.push(batch);
    nextStart = sized.end;
    upcoming = sizer.next(nextStart);
    upcoming.catch(() => undefined); // a failure surfaces when the batch is taken
    return { batch, indexes: sized.indexes, gas: sized.gas };
  };

  try {
    for (;;) {
      while (inFlight.size >= options.maxInFlight && failure === undefined) await Promise.race(inFlight);
      if (failure !== undefined) break;
      const next = await nextBatch();
      if (next === undefined) {
        if (inFlight.size === 0 && retryQueue.length === 0) break;
        await Promise.race(inFlight);
        continue;
      }
      const { batch, indexes, gas } = next;
      const limit = withMargin(gas) < options.limits.hardLimit ? withMargin(gas) : options.limits.hardLimit;
      const decided: BatchRecord | undefined =
        batch.state.status === "planned" && !journal.records.some((r) => r.type === "batch" && r.batch === batch.batch)
          ? { type: "batch", batch: batch.batch, start: batch.start, end: batch.end, gasLimit: limit.toString() }
          : undefined;
      const hash = await broadcast(batch, indexes, nonce, limit, decided);
      await journal.append({ type: "sent", batch: batch.batch, nonce, hash });
      batch.state = { status: "sent", nonce, hash };
      nonce++;
      report.sent++;
      const tracked: Promise<void> = awaitReceipt(batch, hash)
        .then(() => {
          if (batch.state.status === "dropped") retryQueue.push(batch);
        })
        .catch((error) => {
          failure ??= error;
        })
        .finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
    }
  } catch (error) {
    failure ??= error;
  }
  await Promise.allSettled(inFlight);
  await journal.flush();
  if (failure !== undefined) throw failure;
  return report;
}

function brief(error: unknown): string {
  return firstLine(error).slice(0, 200);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
