import type { Signer } from "ethers";

import type { VipScore } from "../../../types/ethers-contracts/index.js";
import { estimateSendAndConfirm } from "../../contract/confirm.js";
import { preflight } from "../../contract/preflight.js";
import { field, formatNumber, type Output } from "../../output.js";

/** Finalizes the open stage after the same preflight as `scores:update`; returns the stage now open. */
export async function runFinalize(score: VipScore, signer: Signer, stage: bigint, out: Output): Promise<bigint> {
  const from = await signer.getAddress();
  await preflight(score, from, stage);
  const receipt = await estimateSendAndConfirm(
    `finalizeStage(${stage})`,
    signer.provider!,
    from,
    () => score.finalizeStage.estimateGas(stage),
    (overrides) => score.finalizeStage(stage, overrides),
  );
  const open = await score.openStage();
  out.line(field("finalized", `stage ${stage} in tx ${receipt.hash}, block ${receipt.blockNumber}, gas ${formatNumber(receipt.gasUsed)}`));
  out.line(field("open stage", open));
  return open;
}
