import type { Signer } from "ethers";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { sendAndConfirm, transactionOverrides } from "../contract/confirm.js";
import { preflight } from "../contract/preflight.js";
import { field, formatNumber, type Output } from "../output.js";
import { gasLimits, planBatches } from "../scores/batches.js";
import { readScoreFile } from "../scores/read.js";

export interface ScoresUpdateOptions {
  stage: bigint;
  file: string;
  dryRun: boolean;
}

export interface ScoresUpdateReport {
  addresses: number;
  batches: number;
  gasUsed: bigint;
  transactions: string[];
}

/**
 * Pushes a score file to the open stage: validates the whole file, checks the stage and the allow list by
 * call, plans batches that fit the node's gas limits, then sends them one by one, waiting for each receipt.
 * `updateScores` sets absolute values, so running the same file again after an interruption ends in the
 * same state.
 */
export async function runScoresUpdate(score: VipScore, signer: Signer, options: ScoresUpdateOptions, out: Output): Promise<ScoresUpdateReport> {
  const entries = await readScoreFile(options.file);
  const total = entries.reduce((sum, e) => sum + e.score, 0n);
  out.line(field("score file", `${options.file}: ${formatNumber(entries.length)} addresses, total score ${formatNumber(total)}`));

  const signerAddress = await signer.getAddress();
  await preflight(score, signerAddress, options.stage);
  out.line(field("contract", `${await score.getAddress()}, stage ${options.stage} open, signer ${signerAddress} allowed`));

  const limits = await gasLimits(signer.provider!);
  const batches = await planBatches(score, options.stage, entries, limits);
  const estimated = batches.reduce((sum, b) => sum + b.estimatedGas, 0n);
  out.line(field("plan", `${batches.length} batch(es) of up to ${formatNumber(Math.max(...batches.map((b) => b.entries.length)))} addresses, ~${formatNumber(estimated)} gas (budget ${formatNumber(limits.budget)} per transaction)`));
  if (options.dryRun) {
    out.line("dry run: nothing was sent");
    return { addresses: entries.length, batches: batches.length, gasUsed: 0n, transactions: [] };
  }

  let gasUsed = 0n;
  const transactions: string[] = [];
  for (const [i, batch] of batches.entries()) {
    const lines = `lines ${batch.entries[0]!.line}–${batch.entries[batch.entries.length - 1]!.line}`;
    const overrides = await transactionOverrides(signer.provider!, batch.gasLimit);
    const receipt = await sendAndConfirm(`updateScores for ${lines}`, () =>
      score.updateScores(options.stage, batch.entries.map((e) => e.address), batch.entries.map((e) => e.score), overrides),
    );
    gasUsed += receipt.gasUsed;
    transactions.push(receipt.hash);
    out.line(`batch ${i + 1}/${batches.length}: ${lines}, ${batch.entries.length} addresses, gas ${formatNumber(receipt.gasUsed)}, tx ${receipt.hash}, block ${receipt.blockNumber}`);
  }
  out.line(field("done", `${formatNumber(entries.length)} addresses in ${batches.length} batch(es), ${formatNumber(gasUsed)} gas`));
  return { addresses: entries.length, batches: batches.length, gasUsed, transactions };
}
