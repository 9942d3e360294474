import type { Signer } from "ethers";

import { finalizeOnce } from "./finalize.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
import { defined } from "../errors.js";
import { finalizeJournalPath } from "../journal/journal.js";
import { field, formatNumber, type Output } from "../output.js";

/**
 * Finalizes the open stage after the same preflight as `scores:update`,
 * journalled so that a run killed between the send and the receipt never sends
 * a second finalization; returns the stage now open.
 */
export async function runFinalize(
  score: VipScore,
  signer: Signer,
  stage: bigint,
  where: { journalDir: string; network: string },
  out: Output,
): Promise<bigint> {
  const chainId = (
    await defined(
      signer.provider,
      "the operator's signer is connected",
    ).getNetwork()
  ).chainId;
  const journal = finalizeJournalPath(
    where.journalDir,
    chainId,
    await score.getAddress(),
    stage,
  );
  const { receipt, resumed } = await finalizeOnce(
    score,
    signer,
    stage,
    journal,
    { network: where.network },
  );
  if (receipt === undefined) {
    out.line(
      field(
        "already finalized",
        `stage ${stage} (by another transaction): nothing was sent`,
      ),
    );
  } else {
    const how = resumed
      ? " (sent by an earlier run, found by its journal)"
      : "";
    out.line(
      field(
        "finalized",
        `stage ${stage} in tx ${receipt.hash}, block ${receipt.blockNumber}, ` +
          `gas ${formatNumber(receipt.gasUsed)}${how}`,
      ),
    );
  }
  const open = await score.openStage();
  out.line(field("open stage", open));
  return open;
}
