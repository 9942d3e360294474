/**
 * The records a journal keeps of one transaction, the same for every process
 * that sends one (the push journals one per batch and names it; a finalization
 * journals one and names none): `sending` before the broadcast, `sent` once
 * the node took it, `confirmed` with its receipt, `dropped` when it will not
 * be mined and may be sent again.
 */

/**
 * Written before the transaction is broadcast: if the process dies now, the
 * nonce finds it again.
 */
interface SendingRecord {
  type: "sending";
  nonce: number;
  /**
   * The chain's height before the send: the nonce is looked for from here on
   * (a finalization's; the push looks from its journal's start block).
   */
  block?: number;
  at?: string;
  /**
   * The call's calldata, so the transaction is found again by what it was (a
   * finalization's; absent in its journals of earlier versions, which sent
   * `finalizeStage(stage)`).
   */
  data?: string;
}

interface SentRecord {
  type: "sent";
  nonce: number;
  hash: string;
}

export interface ConfirmedRecord {
  type: "confirmed";
  hash: string;
  blockNumber: number;
  gasUsed: string;
  /** The receipt's status: 1 success, 0 reverted (or out of gas). */
  status: number;
}

/**
 * The transaction will not be mined (never broadcast, replaced, gone from the
 * node, or out of gas): it may be sent again.
 */
interface DroppedRecord {
  type: "dropped";
  reason: string;
  /** The nonce it had (a finalization's record names it). */
  nonce?: number;
}

export type TransactionRecord =
  SendingRecord | SentRecord | ConfirmedRecord | DroppedRecord;

const TRANSACTION_RECORD_TYPES: ReadonlySet<string> = new Set<
  TransactionRecord["type"]
>(["sending", "sent", "confirmed", "dropped"]);

/** Whether a journal's record is about a transaction (not, say, its start). */
export function isTransactionRecord<R extends { type: string }>(
  record: R,
): record is R & TransactionRecord {
  return TRANSACTION_RECORD_TYPES.has(record.type);
}
