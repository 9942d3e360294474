import type { Journal } from "./journal.js";
import { isTransactionRecord } from "./transaction-records.js";
import {
  reduceTransaction,
  type TransactionState,
} from "./transaction-state.js";

/** Anything whose transaction a journal follows: a push's batch, a finalization. */
export interface Journalled {
  state: TransactionState;
}

/**
 * Appends `records` to the journal (one write, synced) and then moves the
 * transaction's state on by them, with the reducer the journal is replayed
 * with: the one way a process writes a step, so what it holds in memory is
 * always what a resumed run would read. Records that are not about the
 * transaction (a push's `batch`) are written and leave the state as it is.
 */
export async function applyRecords<R extends { type: string }>(
  journal: Journal<R>,
  transaction: Journalled,
  ...records: R[]
): Promise<TransactionState> {
  await journal.append(...records);
  for (const record of records)
    if (isTransactionRecord(record))
      transaction.state = reduceTransaction(transaction.state, record);
  return transaction.state;
}
