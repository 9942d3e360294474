import { sleep } from "@nomicfoundation/hardhat-utils/lang";

import { RouterError, type RouterClient } from "../clients/router.js";
import { ERRORS } from "../error-catalog.js";
import { VipError, defined, reasonOf } from "../errors.js";
import { recordsOf, type TransferRecord } from "./records.js";
import type { Journal } from "../journal/journal.js";
import { field, type Output } from "../output.js";
import { safeText } from "../output.js";
import { outcomeOf, type StatusView, viewStatus } from "./status.js";

export interface FollowOptions {
  /**
   * The route's estimated duration, which sets the polling pace; unknown (older
   * answers) keeps a steady pace.
   */
  estimatedSeconds?: number;
  /**
   * A fixed poll interval instead of the adaptive one (tests, impatient
   * operators), in ms.
   */
  pollMs?: number;
  /**
   * How long to follow before giving up (the transfer goes on; `bridge:status`
   * picks it up), in ms.
   */
  timeoutMs: number;
  /** How long a 404 right after tracking counts as "not indexed yet", in ms. */
  notIndexedMs?: number;
}

/**
 * A 404 that means "not seen yet" (Skip's status answers "tx not found"), as
 * opposed to one that will never heal: Skip's track answers "chain ID not
 * supported" for a chain it does not index.
 */
function notSeenYet(error: unknown): error is RouterError {
  return (
    error instanceof RouterError &&
    error.status === 404 &&
    !/not supported|unsupported/i.test(`${error.reason} ${error.info ?? ""}`)
  );
}

/**
 * Registers a broadcast transaction with the tracker exactly once: "tracking"
 * is journalled before the call and "tracked" after; a restart between the two
 * asks the status endpoint first and tracks again only if the tracker does not
 * know the transaction. A 404 ("not seen yet") is retried, bounded: it
 * registered nothing.
 */
export async function trackOnce(
  router: RouterClient,
  journal: Journal<TransferRecord>,
  hash: string,
  chainId: string,
  out: Output,
): Promise<void> {
  if (recordsOf(journal.records, "tracked").some((r) => r.hash === hash))
    return;
  if (recordsOf(journal.records, "tracking").some((r) => r.hash === hash)) {
    const known = await router.status(hash, chainId).then(
      () => true,
      (error: unknown) => {
        if (notSeenYet(error)) return false;
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
      await journal.append({
        type: "tracked",
        hash,
        explorerLink: answer.explorer_link ?? undefined,
      });
      out.line(
        field(
          "tracked",
          `${hash}${answer.explorer_link ? ` (${answer.explorer_link})` : ""}`,
        ),
      );
      return;
    } catch (error) {
      if (!notSeenYet(error) || attempt >= 10) {
        throw new VipError(ERRORS.NETWORK.ROUTER.TRACKING_FAILED, {
          hash,
          reason: reasonOf(error),
          chainId,
        });
      }
      await sleep(Math.min(attempt, 5));
    }
  }
}

/**
 * The wait before the next status poll: slow while the transfer is far from its
 * estimated end (60 s while more than 5 min remain), faster near it (5 s),
 * every second once overdue, as Initia's wallet paces it.
 */
export function pollInterval(
  elapsedMs: number,
  estimatedSeconds: number | undefined,
): number {
  if (estimatedSeconds === undefined) return 5_000;
  const remaining = estimatedSeconds * 1000 - elapsedMs;
  if (remaining > 5 * 60_000) return 60_000;
  if (remaining > 0) return 5_000;
  return 1_000;
}

/**
 * Polls the status of `hash` until it ends, with a line per hop whenever its
 * state changes (and its own error, where a bridge reports one). Success and
 * failure are journalled as the end and returned (the caller says what a
 * failure means); `STATE_ABANDONED` (the tracker gave up, the transfer may
 * still land) and `STATE_UNKNOWN` are errors that are not journalled as the
 * end, so `bridge:status` asks again later.
 */
export async function followToTheEnd(
  router: RouterClient,
  journal: Journal<TransferRecord>,
  hash: string,
  chainId: string,
  options: FollowOptions,
  out: Output,
): Promise<StatusView> {
  const start = Date.now();
  const notIndexedMs = options.notIndexedMs ?? 120_000;
  const seen = new Map<number, string>();
  let lastState = recordsOf(journal.records, "status")
    .filter((r) => r.hash === hash)
    .pop()?.state;
  const again = `\`bridge:status --tx ${hash} --chain ${chainId}\``;
  for (;;) {
    const elapsed = Date.now() - start;
    let view: StatusView | undefined;
    try {
      view = viewStatus(await router.status(hash, chainId));
    } catch (error) {
      // A 404 right after tracking is "not indexed yet"; one that says the
      // chain is not supported never heals.
      if (!(notSeenYet(error) && elapsed < notIndexedMs)) throw error;
    }
    if (view !== undefined) {
      for (const [i, hop] of view.hops.entries()) {
        const error = hop.error === undefined ? "" : ` (error: ${hop.error})`;
        const line = `${hop.kind} ${hop.from ?? "?"} → ${hop.to ?? "?"}: ${hop.state ?? "?"}${error}`;
        if (seen.get(i) !== line) {
          seen.set(i, line);
          out.line(field(`hop ${i + 1}`, line));
        }
      }
      if (view.state !== undefined && view.state !== lastState) {
        lastState = view.state;
        await journal.append({ type: "status", hash, state: view.state });
        out.line(field("status", view.state));
      }
      if (view.outcome === "success" || view.outcome === "failure") {
        await journal.append({
          type: "done",
          hash,
          state: defined(view.state, "a view with an outcome has a state"),
          release: view.release,
          error: view.error,
        });
        return view;
      }
      if (view.outcome === "abandoned") {
        const destination =
          view.hops.at(-1)?.to ?? view.release?.chain_id ?? undefined;
        const explorer = view.hops
          .map((h) => h.explorer)
          .filter((l) => l !== undefined)
          .pop();
        throw new VipError(ERRORS.NETWORK.ROUTER.TRANSFER_ABANDONED, {
          hash,
          destination: destination === undefined ? "" : ` on ${destination}`,
          explorer:
            explorer === undefined ? "" : ` (last transaction: ${explorer})`,
          again,
        });
      }
      if (view.outcome === "unknown") {
        const detail = view.error?.message
          ? `: ${safeText(view.error.message)}`
          : "";
        throw new VipError(ERRORS.NETWORK.ROUTER.TRANSFER_STATE_UNKNOWN, {
          hash,
          detail,
          chainId,
          again,
        });
      }
    }
    if (Date.now() - start > options.timeoutMs) {
      throw new VipError(ERRORS.NETWORK.ROUTER.TRANSFER_STILL_UNDER_WAY, {
        hash,
        state: lastState ?? "not indexed",
        seconds: Math.round(options.timeoutMs / 1000),
        again,
      });
    }
    await sleep(
      (options.pollMs ??
        pollInterval(Date.now() - start, options.estimatedSeconds)) / 1000,
    );
  }
}

/**
 * A terminal state in words; for a failure, the error and where the assets are.
 */
export function describeEnd(view: StatusView): string {
  if (view.outcome === "success") return "the transfer completed";
  const release = view.release;
  const where = release
    ? `${release.amount ?? "the"} ${release.denom ?? "assets"} ` +
      `${release.released === true ? "released" : "to be released"} ` +
      `on ${release.chain_id ?? "an unnamed chain"}`
    : "no release reported";
  const hopError = view.hops.map((h) => h.error).find((e) => e !== undefined);
  const error = view.error?.message ?? hopError ?? "no error message";
  return `the transfer ended in ${safeText(String(view.state), 60)}: ${safeText(error)}; assets: ${safeText(where)}`;
}

/** The end a journal recorded, as a view (a resumed run does not ask again). */
export function recordedEnd(
  done: Extract<TransferRecord, { type: "done" }>,
): StatusView {
  return {
    state: done.state,
    outcome: outcomeOf(done.state),
    hops: [],
    release: done.release as StatusView["release"],
    error: done.error as StatusView["error"],
  };
}
