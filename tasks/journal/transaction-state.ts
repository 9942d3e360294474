import type { TransactionRecord } from "./transaction-records.js";

/** Decided, nothing of it journalled yet: it goes out with the next nonce. */
interface Planned {
  status: "planned";
}

/** Journalled before the broadcast: whether it reached the node is unknown. */
export interface Sending {
  status: "sending";
  nonce: number;
  /** Where its nonce is looked for from, when the record says. */
  block?: number;
  /** Its calldata, when the record says. */
  data?: string;
}

export interface Sent {
  status: "sent";
  nonce: number;
  hash: string;
}

export interface Confirmed {
  status: "confirmed";
  hash: string;
  blockNumber: number;
  gasUsed: bigint;
  success: boolean;
}

interface Dropped {
  status: "dropped";
}

/** What a journal says of one transaction: the state its last record left. */
export type TransactionState = Planned | Sending | Sent | Confirmed | Dropped;

export const PLANNED: TransactionState = { status: "planned" };

/**
 * The state a record leaves a transaction in. Each record says everything the
 * state holds, so the state before it does not matter: a pure function of
 * the last record, written as a reducer so that replaying a journal and
 * applying a new record are one code path.
 */
export function reduceTransaction(
  _state: TransactionState,
  record: TransactionRecord,
): TransactionState {
  switch (record.type) {
    case "sending":
      return {
        status: "sending",
        nonce: record.nonce,
        ...(record.block === undefined ? {} : { block: record.block }),
        ...(record.data === undefined ? {} : { data: record.data }),
      };
    case "sent":
      return { status: "sent", nonce: record.nonce, hash: record.hash };
    case "confirmed":
      return {
        status: "confirmed",
        hash: record.hash,
        blockNumber: record.blockNumber,
        gasUsed: BigInt(record.gasUsed),
        success: record.status === 1,
      };
    case "dropped":
      return { status: "dropped" };
  }
}

/** The state of a transaction whose records are `records`, in order. */
export function transactionStateOf(
  records: readonly TransactionRecord[],
): TransactionState {
  return records.reduce(reduceTransaction, PLANNED);
}
