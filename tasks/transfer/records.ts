import { createHash } from "node:crypto";
import path from "node:path";

import { stepState, stepsOf } from "./step-state.js";
import type {
  MsgsRequest,
  MsgsResponse,
  Route,
  SignedOpHook,
} from "../clients/router.js";
import type { TransactionRecord } from "../journal/transaction-records.js";

/**
 * What the transfer moves, from whom to whom: the same command means the same
 * transfer (and resumes it).
 */
export interface TransferIntent {
  fromChain: string;
  fromDenom: string;
  toChain: string;
  toDenom: string;
  amount: string;
  recipient: string;
  signer: string;
  /**
   * `--op-withdraw`: the route is asked for with `is_op_withdraw` (the OPinit
   * withdrawal, not a faster bridge).
   */
  opWithdraw?: true;
}

/**
 * The fields an EVM step's `sending` record adds to the shared one: what the
 * nonce, if found, must have been sent as.
 */
interface EvmSending {
  chainId: string;
  from: string;
  to: string;
  data: string;
  value: string;
  /** Earlier versions' name for `block` (read as it by `currentRecord`). */
  fromBlock?: number;
}

/**
 * The field a Cosmos step's `confirmed` record adds to the shared one: the
 * chain's log of the transaction's result (read again when it failed). Its
 * `gasUsed` is the chain's `gas_used` ("0" in journals of earlier versions,
 * which did not read it).
 */
interface CosmosConfirmed {
  log?: string;
}

/**
 * A shared transaction record of one step, named by `step`: an EVM step's
 * sending, sent, confirmed; a Cosmos step's sent (its sequence as the nonce)
 * and confirmed (its `sending` is its `cosmos-signed`).
 */
type StepTransactionRecord = { step: string } & (
  | (Extract<TransactionRecord, { type: "sending" }> & EvmSending)
  | (Extract<TransactionRecord, { type: "confirmed" }> & CosmosConfirmed)
  | Exclude<TransactionRecord, { type: "sending" | "confirmed" }>
);

export type TransferRecord =
  | ({ type: "start"; at: string } & TransferIntent)
  | { type: "route"; route: Route }
  /**
   * The op hook as signed, before msgs: a restart passes the same hook rather
   * than signing another.
   */
  | {
      type: "hook";
      chainId: string;
      signer: string;
      accountNumber: string;
      sequence: string;
      baseSequence: string;
      signedOpHook: SignedOpHook;
    }
  | { type: "msgs"; request: MsgsRequest; response: MsgsResponse }
  /**
   * A Cosmos transaction as signed, written before broadcast: its hash finds
   * it, its bytes can be sent again unchanged. It is the Cosmos step's
   * `sending` (its sequence the nonce), read as one by `stepState`.
   */
  | {
      type: "cosmos-signed";
      step: string;
      chainId: string;
      signer: string;
      sequence: string;
      hash: string;
      txBytes: string;
    }
  /** The chain refused the transaction before taking it (nothing moved). */
  | { type: "refused"; step: string; hash: string; code: number; log: string }
  /**
   * A step's transaction, in the journal's shared records (read through
   * `stepState`, so that earlier versions' records below are read as these).
   */
  | StepTransactionRecord
  /**
   * A step's broadcast as earlier versions wrote it: no nonce (an EVM step's
   * is its `sending`'s, a Cosmos step's its `cosmos-signed` sequence).
   */
  | { type: "sent"; step: string; hash: string }
  /**
   * A step's transaction in a block as earlier versions wrote it (now
   * `confirmed`): a Cosmos step's with the chain's log.
   */
  | {
      type: "mined";
      step: string;
      hash: string;
      block: number;
      status: number;
      log?: string;
    }
  | { type: "tracking"; hash: string; chainId: string }
  | { type: "tracked"; hash: string; explorerLink?: string }
  | { type: "status"; hash: string; state: string }
  | {
      type: "done";
      hash: string;
      state: string;
      release?: unknown;
      error?: unknown;
    };

/**
 * The journal of a transfer: `<dir>/transfers/<sha256 of the intent, 16
 * hex>.jsonl`.
 */
export function transferJournalPath(
  dir: string,
  intent: TransferIntent,
): string {
  const key = createHash("sha256")
    .update(JSON.stringify({ ...intent, signer: intent.signer.toLowerCase() }))
    .digest("hex")
    .slice(0, 16);
  return path.join(dir, "transfers", `${key}.jsonl`);
}

/** The journal's records of one kind. */
export function recordsOf<T extends TransferRecord["type"]>(
  records: TransferRecord[],
  type: T,
): Extract<TransferRecord, { type: T }>[] {
  return records.filter(
    (r): r is Extract<TransferRecord, { type: T }> => r.type === type,
  );
}

/**
 * Whether the journal holds a transaction that may be out (a step journalled
 * past planned: sending, sent, confirmed) and not refused: the transfer is
 * under way.
 */
export function underWay(records: TransferRecord[]): boolean {
  const refused = new Set(recordsOf(records, "refused").map((r) => r.step));
  return stepsOf(records).some(
    (step) =>
      !refused.has(step) && stepState(records, step).status !== "planned",
  );
}
