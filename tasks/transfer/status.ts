import { operationKindOf } from "./hops.js";
import {
  type AssetRelease,
  type StatusResponse,
  SUCCESS_STATE,
} from "../clients/router.js";

/** What a state means for the follower (Skip's docs, "Transaction states"). */
export type Outcome =
  /** `STATE_COMPLETED_SUCCESS`: the assets are on the destination. */
  | "success"
  /**
   * `STATE_COMPLETED_ERROR`, `STATE_PENDING_ERROR`: it failed (or will);
   * `transfer_asset_release` says where the assets are.
   */
  | "failure"
  /**
   * `STATE_ABANDONED`: the tracker gave up (a stall over 10 min, or the
   * transaction unseen for 5): not a failure.
   */
  | "abandoned"
  /**
   * `STATE_UNKNOWN`: the tracker cannot tell; an error, not a reason to keep
   * polling.
   */
  | "unknown"
  /**
   * Anything else (`STATE_SUBMITTED`, `STATE_PENDING`, `STATE_RECEIVED`, a
   * state added later): not final.
   */
  | "pending";

export function outcomeOf(state: string | undefined): Outcome {
  switch (state) {
    case SUCCESS_STATE:
      return "success";
    case "STATE_COMPLETED_ERROR":
    case "STATE_PENDING_ERROR":
    case "STATE_FAILED": // In no enum, but Initia's document names it terminal.
      return "failure";
    case "STATE_ABANDONED":
      return "abandoned";
    case "STATE_UNKNOWN":
      return "unknown";
    default:
      return "pending";
  }
}

/** One hop as the tracker reports it. */
interface HopView {
  kind: string;
  from?: string;
  to?: string;
  state?: string;
  /**
   * The hop's own error (`packet_txs.error`, an Axelar send's `error`, Go
   * Fast's `error_message`, …).
   */
  error?: string;
  /** The explorer link of its latest transaction, where one is given. */
  explorer?: string;
}

/**
 * A status answer read whole: the overall state, every hop, where the assets
 * are, the error.
 */
export interface StatusView {
  /** The overall state; undefined when the answer names none yet. */
  state?: string;
  outcome: Outcome;
  hops: HopView[];
  release?: AssetRelease;
  error?: { type?: string; message?: string };
}

const FAILED = new Set([
  "STATE_COMPLETED_ERROR",
  "STATE_PENDING_ERROR",
  "STATE_FAILED",
]);

/**
 * Reads a status answer in any shape the documents allow: the overall `state`
 * at the top (Skip's schema) or only per transfer (Skip's own examples), hops
 * in `transfers[].transfer_sequence` or in the flat, deprecated top-level
 * `transfer_sequence` (Initia's example, `{src_chain_id, dst_chain_id, state}`
 * entries), `transfers` empty, `transfer_asset_release` without `amount`.
 */
export function viewStatus(answer: StatusResponse): StatusView {
  const transfers = answer.transfers ?? [];
  const state =
    answer.state ?? combinedState(transfers.map((t) => t.state ?? undefined));
  const perTransfer = transfers.flatMap((t) => t.transfer_sequence ?? []);
  const hops = (
    perTransfer.length > 0 ? perTransfer : (answer.transfer_sequence ?? [])
  ).map(hopView);
  const release =
    answer.transfer_asset_release ??
    transfers
      .map((t) => t.transfer_asset_release)
      .filter((r) => r != null)
      .pop() ??
    undefined;
  const error =
    answer.error ??
    transfers.map((t) => t.error).find((e) => e != null) ??
    undefined;
  return {
    state,
    outcome: outcomeOf(state),
    hops,
    ...(release == null ? {} : { release }),
    ...(error == null
      ? {}
      : {
          error: {
            type: error.type ?? undefined,
            message: error.message ?? undefined,
          },
        }),
  };
}

/**
 * The state of a transaction from the states of the transfers it started: done
 * only when all are.
 */
function combinedState(states: (string | undefined)[]): string | undefined {
  const known = states.filter((s): s is string => s !== undefined);
  if (known.length === 0) return undefined;
  const failed = known.find((s) => FAILED.has(s));
  if (failed !== undefined) return failed;
  if (known.length === states.length && known.every((s) => s === SUCCESS_STATE))
    return SUCCESS_STATE;
  return (
    known.find((s) => s === "STATE_UNKNOWN" || s === "STATE_ABANDONED") ??
    known.find((s) => s !== SUCCESS_STATE) ??
    "STATE_PENDING"
  );
}

function hopView(entry: Record<string, unknown>): HopView {
  const text = (value: unknown) =>
    typeof value === "string" && value !== "" ? value : undefined;
  if (typeof entry.state === "string") {
    // Initia's flat entry: no wrapper.
    return {
      kind: "transfer",
      from: text(entry.src_chain_id),
      to: text(entry.dst_chain_id),
      state: entry.state,
      error: findError(entry),
    };
  }
  const { kind, body } = operationKindOf(entry);
  return {
    kind,
    from: text(body.from_chain_id) ?? text(body.src_chain_id),
    to: text(body.to_chain_id) ?? text(body.dst_chain_id),
    state: text(body.state),
    error: findError(body),
    explorer: findExplorerLink(body),
  };
}

/**
 * The first error message inside a hop, however deep its bridge puts it
 * (bounded).
 */
function findError(value: unknown, depth = 0): string | undefined {
  if (typeof value !== "object" || value === null || depth > 4)
    return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.error_message === "string" && record.error_message !== "")
    return record.error_message;
  const error = record.error;
  if (typeof error === "string" && error !== "") return error;
  if (typeof error === "object" && error !== null) {
    const { message, type } = error as { message?: unknown; type?: unknown };
    if (typeof message === "string" && message !== "")
      return typeof type === "string" && type !== ""
        ? `${message} (${type})`
        : message;
  }
  for (const [key, inner] of Object.entries(record)) {
    if (key === "error") continue;
    const found = findError(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function findExplorerLink(value: unknown, depth = 0): string | undefined {
  if (typeof value !== "object" || value === null || depth > 4)
    return undefined;
  let found: string | undefined;
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (key === "explorer_link" && typeof inner === "string" && inner !== "")
      found = inner;
    else found = findExplorerLink(inner, depth + 1) ?? found;
  }
  return found;
}
