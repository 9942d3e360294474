import type {
  Confirmed,
  Sending,
  Sent,
  TransactionState,
} from "./transaction-state.js";

/**
 * What a process does next with a transaction, from its journalled state
 * alone (as ignition-core's `nextActionForExecutionState`): every process
 * that sends branches on this, so a run killed after any record resumes the
 * same way.
 */
export type NextAction =
  /** Nothing of it went out: send it. */
  | { action: "send" }
  /**
   * Journalled before a broadcast that may or may not have happened: look for
   * its nonce at the node before anything else (never send a second one).
   */
  | { action: "check-nonce"; sending: Sending }
  /** The node took it: follow it to its receipt. */
  | { action: "wait-for-receipt"; sent: Sent }
  /** It will not be mined: send it again. */
  | { action: "resend" }
  /**
   * Mined and reverted: the process judges why (the push resends a batch that
   * ran out of gas; a finalization sends again after its preflight).
   */
  | { action: "reverted"; confirmed: Confirmed }
  /** Mined with success: nothing is left to do. */
  | { action: "done"; confirmed: Confirmed };

export function nextAction(state: TransactionState): NextAction {
  switch (state.status) {
    case "planned":
      return { action: "send" };
    case "sending":
      return { action: "check-nonce", sending: state };
    case "sent":
      return { action: "wait-for-receipt", sent: state };
    case "dropped":
      return { action: "resend" };
    case "confirmed":
      return state.success
        ? { action: "done", confirmed: state }
        : { action: "reverted", confirmed: state };
  }
}
