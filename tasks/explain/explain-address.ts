import { getAddress, isAddress } from "ethers";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { addressEvidence } from "./evidence.js";
import { type Explanation, explanation, type OnChainScore } from "./explain.js";
import { indexFile } from "../indexer/index-policies.js";
import { ActivityStore } from "../indexer/store.js";
import type { ActivityContext } from "../scoring/context.js";
import { type PreparedScoring, scorePrepared } from "../scoring/prepare.js";

/** `--address` as an EIP-55 address, refused before anything is read. */
export function parseExplainAddress(raw: string): string {
  if (!isAddress(raw))
    throw new VipError(ERRORS.CONTRACT.ACCOUNTS.NOT_AN_ADDRESS, {
      option: "--address",
      value: raw,
    });
  return getAddress(raw);
}

async function onChainScore(
  score: VipScore,
  stage: bigint,
  address: string,
): Promise<OnChainScore> {
  const [held, stageInfo] = await Promise.all([
    score.scores(stage, address),
    score.stages(stage),
  ]);
  return {
    contract: await score.getAddress(),
    score: held.amount,
    indexed: held.isIndexed,
    finalized: stageInfo.isFinalized,
  };
}

/**
 * Scores the stage (or trial window) under its policy (the index brought up
 * to the head, as `scores:compute` does, nothing written), then reads every
 * row of the policy's sources that names the address, and what the contract
 * holds when there is a stage to read.
 */
export async function explainAddress(
  ctx: ActivityContext,
  request: { prepared: PreparedScoring; address: string },
  contract: VipScore | undefined,
): Promise<Explanation> {
  const scores = await scorePrepared(ctx, request.prepared);
  const store = await ActivityStore.open(indexFile(ctx.dataDir, ctx.chainId));
  let evidence;
  try {
    evidence = await addressEvidence(
      store,
      scores.policy.sources,
      request.address,
      {
        firstInWindow: scores.blocks.firstNumber,
        last: scores.blocks.last.number,
      },
    );
  } finally {
    store.close();
  }
  const stage = scores.window.stage;
  const onChain =
    contract === undefined || stage === null
      ? undefined
      : await onChainScore(contract, stage, request.address);
  return explanation(request.address, scores, evidence, onChain);
}
