import type { Journalled } from "./apply-record.js";
import type { JournalRecord } from "./journal.js";
import { isTransactionRecord } from "./transaction-records.js";
import { PLANNED, reduceTransaction } from "./transaction-state.js";
import { defined } from "../errors.js";

/** A batch of a push: file entries [start, end), and its transaction's state. */
export interface JournalledBatch extends Journalled {
  batch: number;
  start: number;
  end: number;
}

/**
 * The batch a record is about: the journal records a batch before anything
 * else about it.
 */
function recorded(batches: JournalledBatch[], batch: number): JournalledBatch {
  return defined(
    batches[batch],
    "the journal records each batch before any record about it",
  );
}

/**
 * The batches a push's journal describes, each in the state its transaction's
 * records leave it (the transactions' reducer, as when they were written).
 */
export function batchesOf(records: JournalRecord[]): JournalledBatch[] {
  const batches: JournalledBatch[] = [];
  for (const record of records) {
    if (record.type === "batch") {
      batches[record.batch] = {
        batch: record.batch,
        start: record.start,
        end: record.end,
        state: PLANNED,
      };
    } else if (isTransactionRecord(record)) {
      const batch = recorded(batches, record.batch);
      batch.state = reduceTransaction(batch.state, record);
    }
  }
  return batches;
}
