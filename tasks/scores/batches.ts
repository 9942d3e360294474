import type { Provider } from "ethers";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { refused } from "../contract/confirm.js";
import { ERRORS } from "../error-catalog.js";
import { VipError, defined, isVipError } from "../errors.js";
import { BatchGas, type EntryKind } from "./gas-model.js";
import type { ScoreTable } from "./table.js";

/**
 * The per-transaction gas cap of chains with EIP-7825 (Osaka), Hardhat's
 * simulated network among them.
 */
const TX_GAS_CAP = 16_777_216n;

export interface GasLimits {
  /**
   * What one transaction may use: the lower of the block gas limit and the
   * per-transaction cap.
   */
  hardLimit: bigint;
  /**
   * What a batch's gas limit is sized to: the block gas limit shared evenly by
   * the fewest batches that each stay under `hardLimit`. A block takes
   * transactions while their gas limits fit, so `perBlock` batches of `target`
   * fill it (150,000,000 and the 16,777,216 cap: 9 of 16,666,666), where
   * batches of the cap would leave a ninth of it empty.
   */
  target: bigint;
  perBlock: number;
}

export async function gasLimits(provider: Provider): Promise<GasLimits> {
  const block = await provider.getBlock("latest");
  if (block === null) throw new VipError(ERRORS.SCORES.PUSH.NO_LATEST_BLOCK);
  const hardLimit = block.gasLimit < TX_GAS_CAP ? block.gasLimit : TX_GAS_CAP;
  const perBlock = (block.gasLimit + hardLimit - 1n) / hardLimit;
  return {
    hardLimit,
    target: block.gasLimit / perBlock,
    perBlock: Number(perBlock),
  };
}

/**
 * A decided batch: file entries [start, end), of which `indexes` are sent,
 * predicted at `gas`, sent with `gasLimit`.
 */
export interface SizedBatch {
  start: number;
  end: number;
  indexes: number[];
  gas: bigint;
  gasLimit: bigint;
}

/**
 * `updateScores` gas for some entries of a table, with the contract's reason
 * when the node refuses.
 */
export function batchEstimator(
  score: VipScore,
  stage: bigint,
  table: ScoreTable,
) {
  return async (indexes: number[]): Promise<bigint> => {
    const first = table.line(
      defined(indexes[0], "a batch sends at least one entry"),
    );
    const last = table.line(
      defined(indexes[indexes.length - 1], "a batch sends at least one entry"),
    );
    try {
      return await score.updateScores.estimateGas(
        stage,
        indexes.map((i) => table.addressHex(i)),
        indexes.map((i) => table.score(i)),
      );
    } catch (error) {
      if (isVipError(error)) throw error;
      throw refused(`updateScores for lines ${first}–${last}`, error);
    }
  };
}

/**
 * Parts per million: the model's prediction times this is the gas limit sent.
 */
const PPM = 1_000_000n;
/**
 * 1% above the model, for what it does not see (memory growth past the measured
 * sizes, a chain's own rules).
 */
const START_FACTOR = 1_010_000n;

/**
 * Decides batches from the contract's cost model (`gas-model.ts`), without
 * asking the node: entries are added while the predicted gas, times a safety
 * factor, stays under `limits.target` (and `maxBatchSize`). The factor starts
 * 1% above the model and only grows: `observe` raises it when an estimate or a
 * receipt shows the chain charging more than predicted (a rollup with other gas
 * rules), so later batches are sized right.
 */
export class BatchPlanner {
  #factor = START_FACTOR;

  readonly #table: ScoreTable;
  readonly #limits: GasLimits;
  readonly #kindOf: (index: number) => EntryKind;
  readonly #maxBatchSize: number;
  readonly #skip: (index: number) => boolean;

  constructor(
    table: ScoreTable,
    limits: GasLimits,
    kindOf: (index: number) => EntryKind,
    maxBatchSize: number = Number.MAX_SAFE_INTEGER,
    /** Entries not to send (`--skip-unchanged`). */
    skip: (index: number) => boolean = () => false,
  ) {
    this.#table = table;
    this.#limits = limits;
    this.#kindOf = kindOf;
    this.#maxBatchSize = maxBatchSize;
    this.#skip = skip;
  }

  /** The entries of [start, end) that are sent. */
  indexes(start: number, end: number): number[] {
    const indexes: number[] = [];
    for (let i = start; i < end; i++) if (!this.#skip(i)) indexes.push(i);
    return indexes;
  }

  /** "lines a–b" of a batch, for messages. */
  lines(batch: { start: number; end: number }): string {
    return `lines ${this.#table.line(batch.start)}–${this.#table.line(batch.end - 1)}`;
  }

  /** The gas limit a batch predicted at `gas` is sent with. */
  gasLimit(gas: bigint): bigint {
    const limit = (gas * this.#factor + PPM - 1n) / PPM;
    return limit < this.#limits.hardLimit ? limit : this.#limits.hardLimit;
  }

  /**
   * Takes in what the chain really charged (an estimate, or a receipt's gas
   * used) for a batch predicted at `predicted`.
   */
  observe(predicted: bigint, actual: bigint): void {
    const needed = (actual * START_FACTOR + predicted - 1n) / predicted;
    if (needed > this.#factor) this.#factor = needed;
  }

  /**
   * The next batch from entry `start` on, or undefined when nothing is left to
   * send.
   */
  next(start: number): SizedBatch | undefined {
    const total = this.#table.length;
    while (start < total && this.#skip(start)) start++;
    if (start >= total) return undefined;
    const gas = new BatchGas(this.#table);
    const indexes: number[] = [];
    let predicted = 0n;
    let end = start;
    for (; end < total && indexes.length < this.#maxBatchSize; end++) {
      if (this.#skip(end)) continue;
      gas.add(end, this.#kindOf(end));
      const withEntry = gas.total;
      if (
        this.gasLimit(withEntry) > this.#limits.target ||
        (withEntry * this.#factor) / PPM > this.#limits.hardLimit
      ) {
        if (indexes.length === 0) {
          throw new VipError(ERRORS.SCORES.PUSH.ENTRY_OVER_GAS_LIMIT, {
            line: this.#table.line(end),
            gas: this.gasLimit(withEntry),
            target: this.#limits.target,
          });
        }
        break;
      }
      indexes.push(end);
      predicted = withEntry;
    }
    return {
      start,
      end,
      indexes,
      gas: predicted,
      gasLimit: this.gasLimit(predicted),
    };
  }
}

/**
 * Checks the model against the node once, on the first batch from `start`: its
 * estimate raises the factor if the chain charges more than predicted, and the
 * batch is planned again until the estimate fits.
 */
export async function calibratedFirst(
  planner: BatchPlanner,
  estimate: (indexes: number[]) => Promise<bigint>,
  start: number,
): Promise<SizedBatch | undefined> {
  for (let attempt = 0; ; attempt++) {
    const batch = planner.next(start);
    if (batch === undefined) return undefined;
    const estimated = await estimate(batch.indexes);
    planner.observe(batch.gas, estimated);
    if (estimated <= batch.gasLimit) return batch;
    if (attempt >= 3)
      throw new VipError(ERRORS.SCORES.PUSH.GAS_MODEL_UNCALIBRATED, {
        estimated,
        lines: planner.lines(batch),
        planned: batch.gasLimit,
      });
  }
}

/** All batches of a table, decided without sending anything (`--dry-run`). */
export async function planBatches(
  planner: BatchPlanner,
  estimate: (indexes: number[]) => Promise<bigint>,
  total: number,
): Promise<SizedBatch[]> {
  const first = await calibratedFirst(planner, estimate, 0);
  if (first === undefined) return [];
  const batches: SizedBatch[] = [first];
  for (let start = first.end; start < total;) {
    const batch = planner.next(start);
    if (batch === undefined) break;
    batches.push(batch);
    start = batch.end;
  }
  return batches;
}
