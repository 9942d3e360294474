import type { JournalRecord } from "./journal.js";
import { defined } from "../errors.js";

type BatchState =
  | { status: "planned" }
  | { status: "sending"; nonce: number }
  | { status: "sent"; nonce: number; hash: string }
  | {
      status: "confirmed";
      hash: string;
      blockNumber: number;
      gasUsed: bigint;
      success: boolean;
    }
  | { status: "dropped" };

export interface JournalledBatch {
  batch: number;
  start: number;
  end: number;
  state: BatchState;
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

/** The batches a journal describes, each in the last state recorded for it. */
export function batchesOf(records: JournalRecord[]): JournalledBatch[] {
  const batches: JournalledBatch[] = [];
  for (const record of records) {
    switch (record.type) {
      case "batch":
        batches[record.batch] = {
          batch: record.batch,
          start: record.start,
          end: record.end,
          state: { status: "planned" },
        };
        break;
      case "sending":
        recorded(batches, record.batch).state = {
          status: "sending",
          nonce: record.nonce,
        };
        break;
      case "sent":
        recorded(batches, record.batch).state = {
          status: "sent",
          nonce: record.nonce,
          hash: record.hash,
        };
        break;
      case "confirmed":
        recorded(batches, record.batch).state = {
          status: "confirmed",
          hash: record.hash,
          blockNumber: record.blockNumber,
          gasUsed: BigInt(record.gasUsed),
          success: record.status === 1,
        };
        break;
      case "dropped":
        recorded(batches, record.batch).state = {
          status: "dropped",
        };
        break;
      default:
        break;
    }
  }
  return batches;
}
