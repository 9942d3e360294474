import type { TransferRecord } from "./records.js";
import { stepTransactionRecord } from "./step-state.js";
import { defined } from "../errors.js";
import type { Journalled } from "../journal/apply-record.js";
import type { Journal } from "../journal/journal.js";
import { nextAction } from "../journal/next-action.js";
import { PLANNED, reduceTransaction } from "../journal/transaction-state.js";

/**
 * A Cosmos transaction as signed: its hash finds it at the chain, its bytes
 * are sent again unchanged (the chain takes them at most once: the sequence is
 * in them), its sequence plays the nonce's part.
 */
export interface SignedCosmosTx {
  hash: string;
  txBytes: Uint8Array;
  sequence: bigint;
}

/**
 * What the journal says of one Cosmos step. `state` is its transaction's
 * state by the shared reducer (sending, sent, confirmed; the sequence as the
 * nonce); beside it, what that state does not hold and a Cosmos step needs:
 * the transaction as signed (a restart sends these bytes again, never signs
 * anew; the shared `sent` state holds no calldata), the chain's log of its
 * block (the shared `confirmed` state holds none), and its refusal (the chain
 * would not take it, or the op hook's check forbade sending it: unlike a
 * shared `dropped`, never to be sent again).
 */
export interface CosmosStepState extends Journalled {
  step: string;
  signed?: SignedCosmosTx;
  log?: string;
  refused?: { hash: string; log: string };
}

/**
 * The state a record leaves a Cosmos step in: records of other steps, and
 * records about nothing of a transaction, leave it as it is; the shared
 * records (read as `stepTransactionRecord` reads them: `cosmos-signed` is the
 * step's `sending`) move its transaction's state with the shared reducer.
 */
function reduceCosmosStep(
  step: CosmosStepState,
  stored: TransferRecord,
): CosmosStepState {
  if (!("step" in stored) || stored.step !== step.step) return step;
  if (stored.type === "refused")
    return { ...step, refused: { hash: stored.hash, log: stored.log } };
  const record = stepTransactionRecord(stored, step.state);
  if (record === undefined) return step;
  const next = { ...step, state: reduceTransaction(step.state, record) };
  if (stored.type === "cosmos-signed")
    next.signed = {
      hash: stored.hash,
      txBytes: Buffer.from(stored.txBytes, "base64"),
      sequence: BigInt(stored.sequence),
    };
  if (
    (stored.type === "confirmed" || stored.type === "mined") &&
    stored.log !== undefined
  )
    next.log = stored.log;
  return next;
}

/** The state a journal's `records` leave the Cosmos step `step` in. */
export function cosmosStepState(
  records: readonly TransferRecord[],
  step: string,
): CosmosStepState {
  return records.reduce(reduceCosmosStep, { step, state: PLANNED });
}

/**
 * Appends `records` (one write, synced), then moves the step on by them with
 * the reducer a restart replays the journal with: `applyRecords` for a Cosmos
 * step, whose state holds more than the shared one.
 */
export async function applyCosmosRecords(
  journal: Journal<TransferRecord>,
  step: CosmosStepState,
  ...records: TransferRecord[]
): Promise<CosmosStepState> {
  await journal.append(...records);
  for (const record of records)
    Object.assign(step, reduceCosmosStep(step, record));
  return step;
}

/**
 * What a run does next with a Cosmos step, from its journalled state alone:
 * the shared `nextAction` of its transaction, with what a Cosmos step needs
 * to do it (the signed bytes, the block's log), and `refused` for a step the
 * journal says must never be sent (unless it was in a block after all).
 */
export type CosmosNextAction =
  /** Nothing of it was journalled: sign it, journal it, broadcast it. */
  | { action: "send" }
  /**
   * Journalled as signed, whether it went out unknown: looked for by its hash,
   * then by its sequence, before the same bytes go out again.
   */
  | { action: "check-nonce"; signed: SignedCosmosTx }
  /**
   * The chain took it: followed to its block (looked for as above, the same
   * bytes sent again if the chain forgot them).
   */
  | { action: "wait-for-receipt"; signed: SignedCosmosTx }
  /** Journalled as dropped (no Cosmos step writes it): signed anew. */
  | { action: "resend" }
  /** In a block, and failed there. */
  | { action: "reverted"; hash: string; log: string }
  /** In a block with success: nothing is left to do. */
  | { action: "done"; hash: string }
  /** Refused by the chain, or never sent: it never will be. */
  | { action: "refused"; hash: string; log: string };

export function cosmosNextAction(step: CosmosStepState): CosmosNextAction {
  const next = nextAction(step.state);
  if (next.action === "done")
    return { action: "done", hash: next.confirmed.hash };
  if (next.action === "reverted")
    return {
      action: "reverted",
      hash: next.confirmed.hash,
      log: step.log ?? "",
    };
  if (step.refused !== undefined) return { action: "refused", ...step.refused };
  switch (next.action) {
    case "send":
    case "resend":
      return next;
    case "check-nonce":
    case "wait-for-receipt":
      return {
        action: next.action,
        signed: defined(
          step.signed,
          "a Cosmos step is sending or sent only after its cosmos-signed record",
        ),
      };
  }
}
