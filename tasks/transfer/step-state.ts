import type { TransferRecord } from "./records.js";
import { currentRecord } from "../journal/earlier-records.js";
import {
  isTransactionRecord,
  type TransactionRecord,
} from "../journal/transaction-records.js";
import {
  PLANNED,
  reduceTransaction,
  type TransactionState,
} from "../journal/transaction-state.js";

/**
 * The state the journal leaves one EVM step's transaction in: its records
 * (those naming `step`) replayed with the shared reducer, each read as this
 * version names it (`currentRecord`: an earlier version's `mined` is
 * `confirmed`, its `fromBlock` is `block`). Earlier versions' `sent` did not
 * repeat the nonce: it is the `sending` record's before it.
 */
export function stepState(
  records: readonly TransferRecord[],
  step: string,
): TransactionState {
  let state = PLANNED;
  for (const stored of records) {
    if (!("step" in stored) || stored.step !== step) continue;
    const record = currentRecord<TransferRecord>({ ...stored });
    if (isTransactionRecord(record))
      state = reduceTransaction(state, withNonce(record, state));
  }
  return state;
}

function withNonce(
  record: TransactionRecord,
  state: TransactionState,
): TransactionRecord {
  if (record.type !== "sent") return record;
  // As read, not as typed: an earlier version's has no nonce.
  const sent: { hash: string; nonce?: number } = record;
  if (sent.nonce !== undefined || !("nonce" in state)) return record;
  return { type: "sent", hash: sent.hash, nonce: state.nonce };
}
