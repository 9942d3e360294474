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
 * The state the journal leaves one step's transaction in (an EVM step's or a
 * Cosmos step's): its records (those naming `step`) replayed with the shared
 * reducer, each read as `stepTransactionRecord` reads it.
 */
export function stepState(
  records: readonly TransferRecord[],
  step: string,
): TransactionState {
  let state = PLANNED;
  for (const stored of records) {
    if (!("step" in stored) || stored.step !== step) continue;
    const record = stepTransactionRecord(stored, state);
    if (record !== undefined) state = reduceTransaction(state, record);
  }
  return state;
}

/**
 * One of a step's records as the shared transaction records name it, given
 * the state the records before it left: read as this version names it
 * (`currentRecord`: an earlier version's `mined` is `confirmed`, its
 * `fromBlock` is `block`); a Cosmos step's `cosmos-signed` is its `sending`,
 * its sequence the nonce (its hash and bytes stay in the record, for the
 * Cosmos step's own state); earlier versions' `sent` did not repeat the nonce:
 * it is the `sending` record's before it. Undefined for a record that is not
 * about the transaction's state (a refusal).
 */
export function stepTransactionRecord(
  stored: TransferRecord,
  state: TransactionState,
): TransactionRecord | undefined {
  const record = currentRecord<TransferRecord>({ ...stored });
  if (record.type === "cosmos-signed")
    return { type: "sending", nonce: Number(record.sequence) };
  if (!isTransactionRecord(record)) return undefined;
  return withNonce(record, state);
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

/** The steps a transfer journal holds records of, in order of appearance. */
export function stepsOf(records: readonly TransferRecord[]): string[] {
  const steps = new Set<string>();
  for (const record of records) if ("step" in record) steps.add(record.step);
  return [...steps];
}

/**
 * The hashes of the journal's transactions a chain took (its steps whose state
 * is sent or confirmed), earlier versions' journals read as this version's.
 */
export function transactionsOut(records: readonly TransferRecord[]): string[] {
  const hashes: string[] = [];
  for (const step of stepsOf(records)) {
    const state = stepState(records, step);
    if (state.status === "sent" || state.status === "confirmed")
      hashes.push(state.hash);
  }
  return hashes;
}
