import type { Signer, TransactionReceipt } from "ethers";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { ERRORS } from "../error-catalog.js";
import { VipError, defined } from "../errors.js";
import { failureOf } from "./confirm.js";
import {
  contractCall,
  openSend,
  type ReceiptTimings,
  resumeSend,
  type SendErrors,
  sendJournalled,
} from "./journalled-send.js";
import { preflight } from "./preflight.js";

export interface FinalizeResult {
  /**
   * The finalization's receipt; undefined when the stage was found finalized by
   * another transaction.
   */
  receipt?: TransactionReceipt;
  /**
   * Whether this call found the transaction of an earlier, interrupted run
   * instead of sending one.
   */
  resumed: boolean;
}

export interface FinalizeOptions extends ReceiptTimings {
  /** The `--network` it runs on: refusals name complete commands for it. */
  network: string;
  /**
   * The stage's write count when its scores were proved: the finalization is
   * then `finalizeStageAt(stage, writeCount)`, which the contract refuses
   * (`StageChanged`) if anything wrote the stage since; without it,
   * `finalizeStage(stage)`.
   */
  writeCount?: bigint;
}

/** The finalization's errors: the catalog's FINALIZE entries, naming `stage`. */
function finalizeErrors(stage: bigint): SendErrors {
  return {
    noncePending: (values) =>
      new VipError(ERRORS.CONTRACT.FINALIZE.NONCE_PENDING, values),
    sendFailed: (error, journal) =>
      failureOf(
        error,
        (reason) =>
          new VipError(
            ERRORS.CONTRACT.FINALIZE.FINALIZE_SEND_FAILED,
            { stage, journal, reason },
            error,
          ),
        (revert) =>
          new VipError(
            ERRORS.CONTRACT.FINALIZE.FINALIZE_SEND_REVERTED,
            { stage, journal, ...revert },
            error,
          ),
      ),
    dropped: ({ hash }) =>
      new VipError(ERRORS.CONTRACT.FINALIZE.FINALIZE_DROPPED, { stage, hash }),
    notMined: ({ hash, seconds }) =>
      new VipError(ERRORS.CONTRACT.FINALIZE.FINALIZE_NOT_MINED, {
        hash,
        seconds,
      }),
    txFailed: ({ hash, why }) =>
      new VipError(ERRORS.CONTRACT.FINALIZE.FINALIZE_TX_FAILED, {
        hash,
        stage,
        why,
      }),
  };
}

/**
 * Finalizes `stage` at most once, journalled (journalled-send.ts): the nonce is
 * recorded before the broadcast and the hash after, so a run killed between
 * the send and its receipt finds its transaction again (by hash, else by
 * nonce) and waits for it instead of sending a second one. A stage the
 * contract already shows finalized is not sent again; anything else is sent
 * after the preflight.
 */
export async function finalizeOnce(
  score: VipScore,
  signer: Signer,
  stage: bigint,
  journalFile: string,
  options: FinalizeOptions,
): Promise<FinalizeResult> {
  const contract = (await score.getAddress()).toLowerCase();
  const provider = defined(
    signer.provider,
    "the signer comes from a network connection, with its provider",
  );
  const from = await signer.getAddress();
  const { writeCount } = options;
  const run = await openSend(journalFile, {
    provider,
    from,
    call:
      writeCount === undefined
        ? contractCall(contract, score.finalizeStage, stage)
        : contractCall(contract, score.finalizeStageAt, stage, writeCount),
    timings: options,
    errors: finalizeErrors(stage),
    // A run resumed with another key (rotated after a kill, say) follows the
    // finalization by the nonce of the key that sent it.
    journalsSigner: true,
    // Journals of versions before the fence name no calldata: they sent
    // finalizeStage(stage).
    unjournalledData: contractCall(contract, score.finalizeStage, stage).data,
  });
  // What an earlier run left: a confirmed finalization (returned), or one in
  // flight that must not be sent again (followed to its receipt); else this
  // run sends (nothing went out, it was dropped, or it reverted).
  const earlier = await resumeSend(run);
  switch (earlier.state) {
    case "done": {
      const { hash } = earlier.confirmed;
      const receipt = await provider.getTransactionReceipt(hash);
      return { receipt: receipt ?? undefined, resumed: true };
    }
    case "followed":
      return { receipt: earlier.receipt, resumed: true };
    case "reverted":
    case "none":
      break;
  }
  // Send, unless the stage is already finalized (by another run or by hand).
  if ((await score.stages(stage)).isFinalized) return { resumed: false };
  await preflight(score, from, stage, options.network);
  return { receipt: await sendJournalled(run), resumed: false };
}
