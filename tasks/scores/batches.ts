import type { Provider } from "ethers";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { refused } from "../contract/confirm.js";
import { VipError } from "../errors.js";
import type { ScoreTable } from "./table.js";

/** The per-transaction gas cap of chains with EIP-7825 (Osaka), Hardhat's simulated network among them. */
export const TX_GAS_CAP = 16_777_216n;

/** Batches are sized to 90% of the limit, so a batch estimated on one state still fits on the next. */
const BUDGET_PERCENT = 90n;
const FIRST_PROBE = 100;

export interface GasLimits {
  /** What one transaction may use: the lower of the block gas limit and the per-transaction cap. */
  hardLimit: bigint;
  /** What a batch is sized to. */
  budget: bigint;
}

export async function gasLimits(provider: Provider): Promise<GasLimits> {
  const block = await provider.getBlock("latest");
  if (block === null) throw new VipError("the node returned no latest block");
  const hardLimit = block.gasLimit < TX_GAS_CAP ? block.gasLimit : TX_GAS_CAP;
  return { hardLimit, budget: (hardLimit * BUDGET_PERCENT) / 100n };
}

/** A decided batch: file entries [start, end), of which `indexes` are sent, estimated at `gas`. */
export interface SizedBatch {
  start: number;
  end: number;
  indexes: number[];
  gas: bigint;
}

/** `updateScores` gas for some entries of a table, with the contract's reason when the node refuses. */
export function batchEstimator(score: VipScore, stage: bigint, table: ScoreTable) {
  return async (indexes: number[]): Promise<bigint> => {
    const first = table.line(indexes[0]!);
    const last = table.line(indexes[indexes.length - 1]!);
    try {
      return await score.updateScores.estimateGas(stage, indexes.map((i) => table.addressHex(i)), indexes.map((i) => table.score(i)));
    } catch (error) {
      if (error instanceof VipError) throw error;
      throw refused(`updateScores for lines ${first}–${last}`, error);
    }
  };
}

/**
 * Decides batches one after the other by estimating against the node: a batch is sized from the last one's
 * gas per entry, then re-estimated until it fits the budget and is within 5% of the size the budget allows
 * (or reaches the end of the file, or `maxBatchSize`).
 */
export class BatchSizer {
  #size: number;

  constructor(
    private readonly estimate: (indexes: number[]) => Promise<bigint>,
    private readonly limits: GasLimits,
    private readonly table: ScoreTable,
    private readonly maxBatchSize = Number.MAX_SAFE_INTEGER,
    /** Entries not to send (`--skip-unchanged`). */
    private readonly skip: (index: number) => boolean = () => false,
  ) {
    this.#size = Math.min(FIRST_PROBE, maxBatchSize);
  }

  /** The entries of [start, end) that are sent. */
  indexes(start: number, end: number): number[] {
    const indexes: number[] = [];
    for (let i = start; i < end; i++) if (!this.skip(i)) indexes.push(i);
    return indexes;
  }

  /** The next batch from entry `start` on, or undefined when nothing is left to send. */
  async next(start: number): Promise<SizedBatch | undefined> {
    const total = this.table.length;
    while (start < total) {
      const end = Math.min(total, start + this.#size);
      const indexes = this.indexes(start, end);
      if (indexes.length === 0) {
        start = end; // all unchanged: nothing to send here
        continue;
      }
      const gas = await this.estimate(indexes);
      const fitting = Math.max(1, Math.floor((indexes.length * Number(this.limits.budget) * 0.97) / Number(gas)));
      if (gas > this.limits.budget) {
        if (end - start === 1) {
          throw new VipError(`line ${this.table.line(start)} alone needs ${gas} gas, over the ${this.limits.budget} budget per transaction`);
        }
        this.#size = Math.max(1, Math.min(end - start - 1, Math.floor(((end - start) * fitting) / indexes.length)));
        continue;
      }
      if (end < total && end - start < this.maxBatchSize && fitting > indexes.length * 1.05) {
        this.#size = Math.min(this.maxBatchSize, Math.max(this.#size + 1, Math.floor(((end - start) * fitting) / indexes.length)));
        continue;
      }
      return { start, end, indexes, gas };
    }
    return undefined;
  }
}

/** All batches of a table, decided without sending anything (`--dry-run`). */
export async function planBatches(sizer: BatchSizer, total: number): Promise<SizedBatch[]> {
  const batches: SizedBatch[] = [];
  for (let start = 0; start < total; ) {
    const batch = await sizer.next(start);
    if (batch === undefined) break;
    batches.push(batch);
    start = batch.end;
  }
  return batches;
}
