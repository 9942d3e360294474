import { FAILURE_STATES, RouterError, type RouterClient, type StatusResponse, SUCCESS_STATE, type TransferStatus } from "../clients/router.js";
import { firstLine, VipError } from "../errors.js";
import type { Journal } from "../journal/journal.js";
import { field, type Output } from "../output.js";
import { operationKindOf } from "./hops.js";
import { recordsOf, type TransferRecord } from "./records.js";

export interface FollowOptions {
  /** The route's estimated duration, which sets the polling pace. */
  estimatedSeconds: number;
  /** A fixed poll interval instead of the adaptive one (tests, impatient operators), in ms. */
  pollMs?: number;
  /** How long to follow before giving up (the transfer goes on; `bridge:status` picks it up), in ms. */
  timeoutMs: number;
  /** How long a 404 right after tracking counts as "not indexed yet", in ms. */
  notIndexedMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Registers a broadcast transaction with the tracker exactly once: "tracking" is journalled before the
 * call and "tracked" after; a restart between the two asks the status endpoint first and tracks again only
 * if the tracker does not know the transaction. A 404 ("not seen yet") is retried, bounded: it registered
 * nothing.
 */
export async function trackOnce(router: RouterClient, journal: Journal<TransferRecord>, hash: string, chainId: string, out: Output): Promise<void> {
  if (recordsOf(journal.records, "tracked").some((r) => r.hash === hash)) return;
  if (recordsOf(journal.records, "tracking").some((r) => r.hash === hash)) {
    const known = await router.status(hash, chainId).then(
      () => true,
      (error: unknown) => {
        if (error instanceof RouterError && error.status === 404) return false;
        throw error;
      },
    );
    if (known) {
      await journal.append({ type: "tracked", hash });
      return;
    }
  } else {
    await journal.append({ type: "tracking", hash, chainId });
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await router.track(hash, chainId);
      await journal.append({ type: "tracked", hash, explorerLink: answer.explorer_link });
      out.line(field("tracked", `${hash}${answer.explorer_link ? ` (${answer.explorer_link})` : ""}`));
      return;
    } catch (error) {
      const notSeenYet = error instanceof RouterError && error.status === 404;
      if (!notSeenYet || attempt >= 10) {
        throw new VipError(`tracking ${hash} failed: ${firstLine(error)}. The transaction is sent; run \`bridge:status --tx ${hash} --chain ${chainId}\` to follow it`);
      }
      await sleep(Math.min(1_000 * attempt, 5_000));
    }
  }
}

/**
 * The wait before the next status poll: slow while the transfer is far from its estimated end (60 s while
 * more than 5 min remain), faster near it (5 s), every second once overdue, as Initia's wallet paces it.
 */
export function pollInterval(elapsedMs: number, estimatedSeconds: number): number {
  const remaining = estimatedSeconds * 1000 - elapsedMs;
  if (remaining > 5 * 60_000) return 60_000;
  if (remaining > 0) return 5_000;
  return 1_000;
}

/**
 * Polls the status of `hash` until a terminal state, with a progress line per hop whenever it changes.
 * Success returns; a failure state is an error that says what failed and where the assets were released.
 */
export async function followToTheEnd(router: RouterClient, journal: Journal<TransferRecord>, hash: string, chainId: string, options: FollowOptions, out: Output): Promise<TransferStatus> {
  const start = Date.now();
  const notIndexedMs = options.notIndexedMs ?? 120_000;
  const seen = new Map<number, string>();
  let lastState = recordsOf(journal.records, "status").filter((r) => r.hash === hash).pop()?.state;
  for (;;) {
    const elapsed = Date.now() - start;
    let status: StatusResponse | undefined;
    try {
      status = await router.status(hash, chainId);
    } catch (error) {
      if (!(error instanceof RouterError && error.status === 404 && elapsed < notIndexedMs)) throw error;
    }
    const transfer = status?.transfers[0];
    if (transfer !== undefined) {
      for (const [i, hop] of transfer.transfer_sequence.entries()) {
        const { kind, body } = operationKindOf(hop);
        const state = typeof body.state === "string" ? body.state : "?";
        if (seen.get(i) !== state) {
          seen.set(i, state);
          out.line(field(`hop ${i + 1}`, `${kind} ${String(body.from_chain_id ?? "?")} → ${String(body.to_chain_id ?? "?")}: ${state}`));
        }
      }
      if (transfer.state !== lastState) {
        lastState = transfer.state;
        await journal.append({ type: "status", hash, state: transfer.state });
        out.line(field("status", transfer.state));
      }
      if (transfer.state === SUCCESS_STATE || FAILURE_STATES.has(transfer.state)) {
        await journal.append({ type: "done", hash, state: transfer.state, release: transfer.transfer_asset_release ?? undefined, error: transfer.error ?? undefined });
        return transfer;
      }
    }
    if (Date.now() - start > options.timeoutMs) {
      throw new VipError(
        `${hash} is still ${lastState ?? "not indexed"} after ${Math.round(options.timeoutMs / 1000)} s: the transfer goes on; ` +
          `\`bridge:status --tx ${hash} --chain ${chainId}\` follows it to its end`,
      );
    }
    await sleep(options.pollMs ?? pollInterval(Date.now() - start, options.estimatedSeconds));
  }
}

/** A terminal state in words; for a failure, the error and where the assets are. */
export function describeEnd(transfer: TransferStatus): string {
  if (transfer.state === SUCCESS_STATE) return "the transfer completed";
  const release = transfer.transfer_asset_release;
  const where = release ? `${release.amount} ${release.denom} ${release.released ? "released" : "to be released"} on ${release.chain_id}` : "no release reported";
  return `the transfer ended in ${transfer.state}: ${transfer.error?.message ?? "no error message"}; assets: ${where}`;
}
