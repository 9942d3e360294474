import type { Provider } from "ethers";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { refused, withMargin } from "../contract/confirm.js";
import { VipError } from "../errors.js";
import type { ScoreEntry } from "./entry.js";

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

export interface Batch {
  entries: ScoreEntry[];
  estimatedGas: bigint;
  gasLimit: bigint;
}

export async function gasLimits(provider: Provider): Promise<GasLimits> {
  const block = await provider.getBlock("latest");
  if (block === null) throw new VipError("the node returned no latest block");
  const hardLimit = block.gasLimit < TX_GAS_CAP ? block.gasLimit : TX_GAS_CAP;
  return { hardLimit, budget: (hardLimit * BUDGET_PERCENT) / 100n };
}

/** Estimated gas of one `updateScores` call, with the contract's revert reason when the node refuses it. */
export async function estimateBatch(score: VipScore, stage: bigint, entries: ScoreEntry[]): Promise<bigint> {
  const first = entries[0]!.line;
  const last = entries[entries.length - 1]!.line;
  try {
    return await score.updateScores.estimateGas(stage, entries.map((e) => e.address), entries.map((e) => e.score));
  } catch (error) {
    throw refused(`updateScores for lines ${first}–${last}`, error);
  }
}

/**
 * Splits `entries` into batches that each fit the gas budget, by estimating against the node: a probe gives
 * the gas per entry, each batch is sized from the last estimate and re-estimated until it fits the budget
 * and is within 5% of the size the budget allows (or holds all that is left).
 */
export async function planBatches(score: VipScore, stage: bigint, entries: ScoreEntry[], limits: GasLimits): Promise<Batch[]> {
  const batches: Batch[] = [];
  let size = Math.min(FIRST_PROBE, entries.length);
  let start = 0;
  while (start < entries.length) {
    size = Math.max(1, Math.min(size, entries.length - start));
    const candidate = entries.slice(start, start + size);
    const gas = await estimateBatch(score, stage, candidate);
    const fitting = Math.max(1, Math.floor((size * Number(limits.budget) * 0.97) / Number(gas)));
    if (gas > limits.budget) {
      if (size === 1) {
        throw new VipError(`line ${candidate[0]!.line} alone needs ${gas} gas, over the ${limits.budget} budget per transaction`);
      }
      size = Math.min(fitting, size - 1);
      continue;
    }
    const holdsTheRest = start + size === entries.length;
    if (!holdsTheRest && fitting > size * 1.05) {
      size = fitting;
      continue;
    }
    // The gas limit sent is the estimate plus 20%, never above the hard limit.
    const limit = withMargin(gas);
    batches.push({ entries: candidate, estimatedGas: gas, gasLimit: limit < limits.hardLimit ? limit : limits.hardLimit });
    start += size;
    // The next batch starts from this one's size: the remaining entries cost about the same per entry.
  }
  return batches;
}
