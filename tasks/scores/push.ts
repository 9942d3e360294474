import type { HardhatEthersProvider } from "@nomicfoundation/hardhat-ethers/types";
import { ensureError } from "@nomicfoundation/hardhat-utils/error";
import { sleep } from "@nomicfoundation/hardhat-utils/lang";
import { type Signer, toQuantity } from "ethers";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { transactionOverrides, withMargin } from "../contract/confirm.js";
import { describeRevert } from "../contract/revert.js";
import { ERRORS } from "../error-catalog.js";
import { reasonOf, VipError, defined } from "../errors.js";
import {
  type MinedReceipt,
  type Outcome,
  ReceiptWatcher,
  type WatchedBlock,
} from "./receipts.js";
import type { ScoreTable } from "./table.js";
import { applyRecords } from "../journal/apply-record.js";
import { findByNonce } from "../journal/find-by-nonce.js";
import type { BatchRecord, Journal } from "../journal/journal.js";
import { nextAction } from "../journal/next-action.js";
import { batchesOf, type JournalledBatch } from "../journal/state.js";
import { minedRevertReason } from "../network/mined-revert.js";
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
import { type PushMarker, withMarker } from "../contract/push-marker.js";

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
  /** Appended to every batch's calldata (`withMarker`). */
  marker?: PushMarker;
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
   * Told of the receipt of each batch this run saw mined with success, before
   * `onConfirmed`: its logs prove what the batch wrote.
   */
  onReceipt?: (start: number, end: number, receipt: MinedReceipt) => void;
  /** Told of every block the receipt watcher reads (`WatcherOptions.onBlock`). */
  onBlock?: (block: WatchedBlock) => void;
  /**
   * Told once, when every batch has been sent and only receipts are awaited:
   * the node's pool then holds the rest of the push, so reads no longer delay
   * a send.
   */
  onAllSent?: () => void;
  /**
   * Asked right before each batch is broadcast; what it throws stops the push
   * there, with nothing of that batch journalled (a live push stops this way
   * once its stage is about to end).
   */
  beforeBroadcast?: () => Promise<void>;
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
  const from = await ctx.signer.getAddress();
  const contract = await ctx.score.getAddress();
  const startBlock = defined(
    ctx.journal.start,
    "the caller journals the start before the push",
  ).startBlock;
  const pacing = new Pacing(options);
  const watcher = await ReceiptWatcher.start(ctx.provider, {
    pollMs: options.pollMs,
    timeoutMs: options.receiptTimeoutMs,
    onBlock: (block) => {
      pacing.observe(block);
      ctx.onBlock?.(block);
    },
  });
  const push = new ScorePush(ctx, options, {
    from,
    contract,
    startBlock,
    pacing,
    watcher,
  });
  return push.run();
}

/** Refusals for a full pool waited out in one run before it stops. */
const MAX_POOL_WAITS = 100;

/** Sends of one batch that failed in transit before the run stops. */
const MAX_SEND_ATTEMPTS = 6;

/** A batch decided and ready to go: what it sends, and its gas limit. */
interface ReadyBatch {
  batch: JournalledBatch;
  indexes: number[];
  gasLimit: bigint;
}

/**
 * How many batches may await their receipts at once: a fixed --max-in-flight,
 * else a window that follows the chain (`InFlightWindow`).
 */
class Pacing {
  readonly #window: InFlightWindow | undefined;
  readonly #fixed: number | undefined;
  /** Batches are ready but the window is full: the chain shows if it starves. */
  heldBack = false;
  /** Refusals for a full pool waited out so far. */
  poolWaits = 0;

  constructor(options: PushOptions) {
    this.#window =
      options.maxInFlight === undefined || options.maxInFlight === 0
        ? new InFlightWindow(options.limits.perBlock)
        : undefined;
    this.#fixed = options.maxInFlight;
  }

  get size(): number {
    return this.#window?.size ?? this.#fixed ?? 1;
  }

  /** A new block the receipt watcher read. */
  observe(block: { gasUsed: bigint; gasLimit: bigint }): void {
    this.#window?.observe({ ...block, heldBack: this.heldBack });
  }

  /** The node refused a send for a full pool. */
  refused(): void {
    this.#window?.refused();
  }
}

/**
 * Fees move slowly against a batch's lifetime: fetched at most every 2 s, not
 * for every batch.
 */
class RecentFees {
  #cache: { at: number; fees: Record<string, string> } | undefined;

  readonly #provider: HardhatEthersProvider;

  constructor(provider: HardhatEthersProvider) {
    this.#provider = provider;
  }

  async get(): Promise<Record<string, string>> {
    if (this.#cache === undefined || Date.now() - this.#cache.at > 2_000) {
      const overrides = await transactionOverrides(this.#provider, 0n);
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
      this.#cache = { at: Date.now(), fees: fields };
    }
    return this.#cache.fees;
  }
}

/** What a push runs as, found before it starts. */
interface PushSetup {
  /** The signer's address. */
  from: string;
  /** The scoring contract's address. */
  contract: string;
  /** The block the journal started at: nonces are looked up from it on. */
  startBlock: number;
  pacing: Pacing;
  watcher: ReceiptWatcher;
}

/**
 * One run of a push, in stages: resume (what the journal and the chain already
 * hold), then send (the next batch, broadcast, followed to its receipt and
 * settled, sent again if it was dropped or ran out of gas), then finish (wait
 * for what is in flight, stop the watcher, flush the journal).
 */
class ScorePush {
  readonly report: PushReport = {
    batches: 0,
    sent: 0,
    resumed: 0,
    gasUsed: 0n,
    addresses: 0,
    outOfGas: 0,
    maxInFlight: 0,
  };
  /** Every batch the journal records, then those this run decides. */
  readonly #known: JournalledBatch[];
  /**
   * Batches decided but not confirmed (dropped, or never sent): sent before
   * new ones.
   */
  readonly #retryQueue: JournalledBatch[] = [];
  /** Sent batches being followed to their receipts. */
  readonly #inFlight = new Set<Promise<void>>();
  /** What a send or receipt raised first: the run stops at it. */
  #failure: unknown;
  /** The nonce the next batch goes out with. */
  #nonce = 0;
  /** Where the next new batch starts: the end of the last one decided. */
  #nextStart = 0;
  /** Whether the node has checked the model on this run's first batch. */
  #calibrated = false;
  /** Whether `onAllSent` was told. */
  #allSent = false;
  /**
   * The model's gas for batches sent by this run, to check against their
   * receipts.
   */
  readonly #predicted = new Map<number, bigint>();
  readonly #planner: BatchPlanner;
  readonly #estimate: (indexes: number[]) => Promise<bigint>;
  readonly #fees: RecentFees;
  /**
   * A transaction found by nonce is this push's when it calls
   * updateScores(stage, …) on the contract: the selector and the stage word
   * open its calldata.
   */
  readonly #callPrefix: string;

  readonly #ctx: PushContext;
  readonly #options: PushOptions;
  readonly #setup: PushSetup;

  constructor(ctx: PushContext, options: PushOptions, setup: PushSetup) {
    this.#ctx = ctx;
    this.#options = options;
    this.#setup = setup;
    const { score, table, journal } = ctx;
    this.#known = batchesOf(journal.records);
    this.#estimate = batchEstimator(score, options.stage, table);
    const kinds = options.kinds;
    this.#planner = new BatchPlanner(
      table,
      options.limits,
      (i: number): EntryKind =>
        kinds === undefined ? NEW : (kinds[i] as EntryKind),
      options.maxBatchSize,
      options.unchanged,
    );
    this.#fees = new RecentFees(ctx.provider);
    this.#callPrefix = score.interface
      .encodeFunctionData("updateScores", [options.stage, [], []])
      .slice(0, 2 + 8 + 64);
  }

  /** Resumes, sends every batch, and waits for their receipts. */
  async run(): Promise<PushReport> {
    try {
      await this.#resume();
      await this.#sendAll();
    } catch (error) {
      this.#failure ??= error;
    } finally {
      await this.#finish();
    }
    if (this.#failure !== undefined) {
      // What a send or receipt raised: always an Error, which ensureError
      // proves before rethrowing.
      ensureError(this.#failure);
      throw this.#failure;
    }
    return this.report;
  }

  // ---- Resume: what the journal and the chain already hold ----

  /**
   * What earlier runs confirmed, then what a killed run left in flight
   * (followed while new batches go out), then where sending picks up.
   */
  async #resume(): Promise<void> {
    for (const batch of this.#known) {
      const next = nextAction(batch.state);
      if (next.action === "done") {
        this.#count(batch, next.confirmed.gasUsed);
        this.#ctx.onConfirmed?.(batch.start, batch.end);
      }
    }
    // A failed receipt an earlier run journalled: one that ran out of gas is
    // sent again; one the contract refused stops this run as it stopped that
    // one, before anything is sent (left as it was, the batch would be
    // neither sent nor reported).
    for (const batch of this.#known) {
      const next = nextAction(batch.state);
      if (next.action === "reverted")
        await this.#failed(batch, {
          hash: next.confirmed.hash,
          gasUsed: next.confirmed.gasUsed,
        });
    }
    for (const batch of this.#known) {
      const next = nextAction(batch.state);
      if (next.action === "check-nonce")
        await this.#reconcile(batch, next.sending.nonce);
    }
    for (const batch of this.#known) {
      const next = nextAction(batch.state);
      if (next.action === "wait-for-receipt") {
        this.report.resumed++;
        this.#track(batch, next.sent.hash);
      }
    }
    this.#showProgress();

    // Batches that were decided but not confirmed go first, then new ones to
    // the end of the file.
    this.#retryQueue.push(
      ...this.#known.filter((b) =>
        ["send", "resend"].includes(nextAction(b.state).action),
      ),
    );
    const last = this.#known[this.#known.length - 1];
    this.#nextStart = last === undefined ? 0 : last.end;
    this.#nonce = await this.#ctx.provider.getTransactionCount(
      this.#setup.from,
      "pending",
    );
  }

  /**
   * Brings a batch that a killed run left sending with `nonce` to sent (or
   * dropped), by its nonce.
   */
  async #reconcile(batch: JournalledBatch, nonce: number): Promise<void> {
    const found = await findByNonce(
      this.#ctx.provider,
      this.#setup.from,
      nonce,
      this.#setup.startBlock,
    );
    if (found.state === "unused")
      return this.#dropped(batch, `nonce ${nonce} was never broadcast`);
    if (found.tx === undefined)
      return this.#dropped(
        batch,
        `nonce ${nonce} is pending but its transaction cannot be found`,
      );
    if (!this.#ours(found.tx.data, found.tx.to))
      return this.#dropped(
        batch,
        `nonce ${nonce} was used by another transaction`,
      );
    await applyRecords(this.#ctx.journal, batch, {
      type: "sent",
      batch: batch.batch,
      nonce,
      hash: found.tx.hash,
    });
  }

  // ---- Send: the next batch, broadcast, followed ----

  /** Sends batches while the window has room, until none is left to send. */
  async #sendAll(): Promise<void> {
    for (;;) {
      await this.#waitForRoom();
      if (this.#failure !== undefined) break;
      const next = await this.#nextBatch();
      if (next === undefined) {
        if (await this.#awaitRest()) continue;
        break;
      }
      await this.#send(next);
    }
  }

  /** Waits while the window is full (unless a batch failed). */
  async #waitForRoom(): Promise<void> {
    const { pacing } = this.#setup;
    while (this.#inFlight.size >= pacing.size && this.#failure === undefined) {
      pacing.heldBack = true;
      await Promise.race(this.#inFlight);
    }
    pacing.heldBack = false;
  }

  /**
   * Nothing to send now: tells `onAllSent` once, then waits for a receipt (a
   * dropped batch comes back to the queue). False when the push is done.
   */
  async #awaitRest(): Promise<boolean> {
    if (!this.#allSent) {
      this.#allSent = true;
      this.#ctx.onAllSent?.();
    }
    if (this.#inFlight.size === 0 && this.#retryQueue.length === 0)
      return false;
    if (this.#inFlight.size > 0) await Promise.race(this.#inFlight);
    return true;
  }

  /** A batch to send again first, else the next new one, else undefined. */
  async #nextBatch(): Promise<ReadyBatch | undefined> {
    const resend = this.#retryQueue.shift();
    if (resend !== undefined) {
      const ready = await this.#resent(resend);
      return ready ?? this.#nextBatch();
    }
    const sized = this.#calibrated
      ? this.#planner.next(this.#nextStart)
      : await calibratedFirst(this.#planner, this.#estimate, this.#nextStart);
    this.#calibrated = true;
    if (sized === undefined) return undefined;
    const batch: JournalledBatch = {
      batch: this.#known.length,
      start: sized.start,
      end: sized.end,
      state: { status: "planned" },
    };
    this.#known.push(batch);
    this.#predicted.set(batch.batch, sized.gas);
    this.#nextStart = sized.end;
    return { batch, indexes: sized.indexes, gasLimit: sized.gasLimit };
  }

  /**
   * A batch sent again, with the node's estimate: the model's prediction may
   * be what failed it. Undefined when it has nothing left to send.
   */
  async #resent(batch: JournalledBatch): Promise<ReadyBatch | undefined> {
    const { hardLimit } = this.#options.limits;
    const indexes = this.#planner.indexes(batch.start, batch.end);
    if (indexes.length === 0) return undefined;
    const estimated = await this.#estimate(indexes);
    if (estimated > hardLimit) {
      throw new VipError(ERRORS.SCORES.PUSH.RESEND_OVER_GAS_LIMIT, {
        batch: this.#label(batch),
        estimated,
        limit: hardLimit,
      });
    }
    const margin = withMargin(estimated);
    return {
      batch,
      indexes,
      gasLimit: margin < hardLimit ? margin : hardLimit,
    };
  }

  /** Journals, broadcasts and follows a batch with the next nonce. */
  async #send({ batch, indexes, gasLimit }: ReadyBatch): Promise<void> {
    const { journal } = this.#ctx;
    await this.#ctx.beforeBroadcast?.();
    const nonce = this.#nonce;
    const decided: BatchRecord | undefined =
      nextAction(batch.state).action === "send" &&
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
    const hash = await this.#broadcast(
      batch,
      indexes,
      nonce,
      gasLimit,
      decided,
    );
    await applyRecords(journal, batch, {
      type: "sent",
      batch: batch.batch,
      nonce,
      hash,
    });
    this.#nonce++;
    this.report.sent++;
    this.#track(batch, hash);
    this.report.maxInFlight = Math.max(
      this.report.maxInFlight,
      this.#inFlight.size,
    );
  }

  /**
   * Sends `indexes` as `batch` with `nonce`; a send whose answer was lost is
   * found by its nonce, not resent.
   */
  async #broadcast(
    batch: JournalledBatch,
    indexes: number[],
    nonce: number,
    gasLimit: bigint,
    decided?: BatchRecord,
  ): Promise<string> {
    await applyRecords(
      this.#ctx.journal,
      batch,
      ...(decided === undefined ? [] : [decided]),
      { type: "sending", batch: batch.batch, nonce },
    );
    const request = await this.#request(indexes, nonce, gasLimit);
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.#ctx.provider.send("eth_sendTransaction", [
          request,
        ])) as string;
      } catch (error) {
        if (await this.#waitedForPool(error)) {
          attempt--;
          continue;
        }
        const hash = await this.#afterFailedSend(batch, nonce, error, attempt);
        if (hash !== undefined) return hash;
      }
    }
  }

  /**
   * The transaction of a batch. It goes through Hardhat's
   * `eth_sendTransaction`: it signs with the configured key, or hardhat-ledger
   * asks the device, so both paths send the same fully specified transaction,
   * and no lookup follows the send.
   */
  async #request(
    indexes: number[],
    nonce: number,
    gasLimit: bigint,
  ): Promise<Record<string, string>> {
    const { score, table } = this.#ctx;
    const call = score.interface.encodeFunctionData("updateScores", [
      this.#options.stage,
      indexes.map((i) => table.addressHex(i)),
      indexes.map((i) => table.score(i)),
    ]);
    const { marker } = this.#options;
    const data = marker === undefined ? call : withMarker(call, marker);
    return {
      from: this.#setup.from,
      to: this.#setup.contract,
      data,
      nonce: toQuantity(nonce),
      gas: toQuantity(gasLimit),
      ...(await this.#fees.get()),
    };
  }

  /**
   * Whether a send was refused for a full pool and waited out: too many
   * pending for the node, so a smaller window, and this batch goes once a
   * receipt frees a place (its nonce is still the next).
   */
  async #waitedForPool(error: unknown): Promise<boolean> {
    const { pacing } = this.#setup;
    if (!isPoolFull(error) || pacing.poolWaits >= MAX_POOL_WAITS) return false;
    pacing.poolWaits++;
    pacing.refused();
    if (this.#inFlight.size > 0) await Promise.race(this.#inFlight);
    else await sleep(0.5);
    return true;
  }

  /**
   * A send that failed: its hash when it reached the node anyway (found by its
   * nonce); else undefined after a pause, to send it again, or the run stops
   * (a refusal, or too many attempts).
   */
  async #afterFailedSend(
    batch: JournalledBatch,
    nonce: number,
    error: unknown,
    attempt: number,
  ): Promise<string | undefined> {
    const maybeArrived =
      isTransient(error) ||
      /already known|known transaction|nonce too low|replacement/i.test(
        String(error),
      );
    if (!maybeArrived)
      throw new VipError(ERRORS.SCORES.PUSH.SEND_REFUSED, {
        batch: batch.batch + 1,
        reason: describeRevert(error) ?? brief(error),
      });
    const { provider } = this.#ctx;
    const { from, startBlock } = this.#setup;
    const found = await findByNonce(provider, from, nonce, startBlock);
    if (
      found.state !== "unused" &&
      found.tx !== undefined &&
      this.#ours(found.tx.data, found.tx.to)
    )
      return found.tx.hash;
    if (attempt >= MAX_SEND_ATTEMPTS) {
      throw new VipError(ERRORS.SCORES.PUSH.SEND_FAILED, {
        batch: batch.batch + 1,
        attempts: attempt,
        reason: brief(error),
      });
    }
    this.#ctx.out.warn(
      `sending batch ${batch.batch + 1}: ${brief(error)}; it did not reach the node, sending again`,
    );
    await sleep(0.25 * 2 ** attempt);
    return undefined;
  }

  /**
   * Follows a sent batch to its receipt; a dropped one goes back to the queue.
   */
  #track(batch: JournalledBatch, hash: string): void {
    const tracked: Promise<void> = this.#setup.watcher
      .wait(hash, this.#label(batch))
      .then((outcome) => this.#settle(batch, outcome))
      .then(() => {
        if (nextAction(batch.state).action === "resend")
          this.#retryQueue.push(batch);
      })
      .catch((error: unknown) => {
        this.#failure ??= error;
      })
      .finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
  }

  // ---- Settle: receipts, drops, gas ----

  /** Journals what became of a sent batch, and counts it if it succeeded. */
  async #settle(batch: JournalledBatch, outcome: Outcome): Promise<void> {
    if ("dropped" in outcome) return this.#dropped(batch, outcome.dropped);
    const receipt = outcome.mined;
    const state = await applyRecords(this.#ctx.journal, batch, {
      type: "confirmed",
      batch: batch.batch,
      hash: receipt.hash,
      blockNumber: receipt.blockNumber,
      gasUsed: receipt.gasUsed.toString(),
      status: receipt.status,
    });
    if (nextAction(state).action === "reverted")
      return this.#failed(batch, receipt);
    const expected = this.#predicted.get(batch.batch);
    if (expected !== undefined)
      this.#planner.observe(expected, receipt.gasUsed);
    this.#count(batch, receipt.gasUsed);
    this.#showProgress();
    this.#ctx.onReceipt?.(batch.start, batch.end, receipt);
    this.#ctx.onConfirmed?.(batch.start, batch.end);
  }

  /**
   * A receipt whose status is not success: sent again if it ran out of gas,
   * else the contract refused it and the run stops.
   */
  async #failed(
    batch: JournalledBatch,
    receipt: Pick<MinedReceipt, "hash" | "gasUsed">,
  ): Promise<void> {
    if (!(await this.#ranOutOfGas(batch, receipt.hash, receipt.gasUsed)))
      throw new VipError(ERRORS.SCORES.PUSH.BATCH_REVERTED, {
        hash: receipt.hash,
        batch: this.#label(batch),
        why: await minedRevertReason(
          this.#ctx.provider,
          receipt.hash,
          describeRevert,
        ),
      });
  }

  /**
   * Whether a batch whose receipt failed ran out of its predicted gas: the node
   * now estimates it above the gas limit it was sent with. Then it is
   * journalled as dropped, to be sent again with the estimate.
   */
  async #ranOutOfGas(
    batch: JournalledBatch,
    hash: string,
    gasUsed: bigint,
  ): Promise<boolean> {
    const sentWith = (await this.#ctx.provider.getTransaction(hash))?.gasLimit;
    let estimated: bigint;
    try {
      estimated = await this.#estimate(
        this.#planner.indexes(batch.start, batch.end),
      );
    } catch {
      return false; // the contract refuses it now: not a matter of gas
    }
    if (sentWith === undefined || estimated <= sentWith) return false;
    const expected = this.#predicted.get(batch.batch);
    if (expected !== undefined) this.#planner.observe(expected, estimated);
    this.report.outOfGas++;
    this.#ctx.out.warn(
      `batch ${batch.batch + 1} ran out of gas (${gasUsed} of ${sentWith}; ` +
        `the node estimates ${estimated}): sending it again`,
    );
    await this.#dropped(
      batch,
      `ran out of gas: used ${gasUsed} of ${sentWith}, estimated ${estimated}`,
    );
    return true;
  }

  async #dropped(batch: JournalledBatch, reason: string): Promise<void> {
    await applyRecords(this.#ctx.journal, batch, {
      type: "dropped",
      batch: batch.batch,
      reason,
    });
  }

  /** Counts a confirmed batch in the report. */
  #count(batch: JournalledBatch, gasUsed: bigint): void {
    this.report.addresses += batch.end - batch.start;
    this.report.gasUsed += gasUsed;
    this.report.batches++;
  }

  #showProgress(): void {
    this.#ctx.progress?.update({
      addresses: this.report.addresses,
      batches: this.report.batches,
      gasUsed: this.report.gasUsed,
    });
  }

  // ---- Finish ----

  /** Waits for every batch in flight, then stops following the chain. */
  async #finish(): Promise<void> {
    await Promise.allSettled(this.#inFlight);
    this.#setup.watcher.stop();
    await this.#ctx.journal.flush();
  }

  /** Whether a transaction found by nonce is this push's. */
  #ours(data: string, to: string | null): boolean {
    return (
      to?.toLowerCase() === this.#setup.contract.toLowerCase() &&
      data.startsWith(this.#callPrefix)
    );
  }

  /** "batch n, lines a–b", for messages. */
  #label(batch: JournalledBatch): string {
    return `batch ${batch.batch + 1}, ${this.#planner.lines(batch)}`;
  }
}

/** A send's failure in a line: its first line, cut. */
function brief(error: unknown): string {
  return reasonOf(error, "with code").slice(0, 200);
}
