import pRetry from "p-retry";

import { ERRORS } from "../error-catalog.js";
import { isVipError, VipError, reasonOf } from "../errors.js";

export interface RetryOptions {
  /** Retries after the first attempt. */
  retries?: number;
  minDelayMs?: number;
  maxDelayMs?: number;
  /** Told of each failed attempt that will be retried. */
  onRetry?: (what: string, error: unknown, retriesLeft: number) => void;
  /** Which failures are worth another attempt (default: `isTransient`). */
  retryable?: (error: unknown) => boolean;
}

const TRANSIENT = [
  /ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|UND_ERR|socket hang up|other side closed/i,
  /fetch failed|network error|connection|timed? ?out|timeout/i,
  /\b(429|502|503|504)\b|too many requests|rate limit|bad gateway|service unavailable|gateway timeout/i,
];

/**
 * Whether `error` is worth retrying: the request failed on the way (a dropped
 * connection, a timeout, a rate limit, a 5xx from a gateway), not because the
 * node refused it (a revert, a bad parameter).
 */
export function isTransient(error: unknown): boolean {
  for (
    let e: unknown = error, depth = 0;
    e !== undefined && e !== null && depth < 6;
    depth++
  ) {
    const ours = ownVerdict(e);
    if (ours !== undefined) return ours;
    const text = `${codeOf(e)} ${e instanceof Error ? e.message : typeof e === "string" ? e : ""}`;
    if (REFUSED.test(text)) return false;
    if (TRANSIENT.some((pattern) => pattern.test(text))) return true;
    e = innerError(e);
  }
  return false;
}

const REFUSED =
  /revert|execution reverted|invalid (argument|params)|nonce too low|insufficient funds/i;

/** Statuses a gateway answers while the node behind it is busy or away. */
const TRANSIENT_STATUSES = [429, 502, 503, 504];

/**
 * What this tool's own errors say about retrying, by their descriptor (never
 * by their text): an endpoint that did not answer is worth another attempt; an
 * HTTP status, only a gateway's "busy" ones. Undefined for any other error.
 */
function ownVerdict(error: unknown): boolean | undefined {
  if (
    isVipError(error, ERRORS.NETWORK.HTTP.UNREACHABLE) ||
    isVipError(error, ERRORS.NETWORK.ROUTER.ROUTER_UNREACHABLE)
  )
    return true;
  if (isVipError(error, ERRORS.NETWORK.HTTP.HTTP_STATUS))
    return TRANSIENT_STATUSES.includes(Number(error.params.status));
  return undefined;
}

/** A Node or JSON-RPC error's code (ECONNRESET, -32005, …), or "". */
function codeOf(error: unknown): string | number {
  if (typeof error !== "object" || error === null || !("code" in error))
    return "";
  const { code } = error;
  return typeof code === "string" || typeof code === "number" ? code : "";
}

/** The error an error wraps (`cause`, or ethers' and viem's `error`). */
function innerError(error: unknown): unknown {
  if (typeof error !== "object" || error === null) return undefined;
  if ("cause" in error && error.cause !== undefined && error.cause !== null)
    return error.cause;
  return "error" in error ? error.error : undefined;
}

/**
 * Runs `fn`, retrying transient failures with exponential backoff (bounded in
 * count and delay). The final failure says what was attempted, how often, and
 * what went wrong.
 */
export async function withRetry<T>(
  what: string,
  fn: () => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const retries = options.retries ?? 6;
  const retryable = options.retryable ?? isTransient;
  let attempts = 0;
  try {
    return await pRetry(
      async () => {
        attempts++;
        return await fn();
      },
      {
        retries,
        minTimeout: options.minDelayMs ?? 250,
        maxTimeout: options.maxDelayMs ?? 8_000,
        factor: 2,
        randomize: true,
        shouldRetry: ({ error }) => retryable(error),
        onFailedAttempt: ({ error, retriesLeft }) => {
          if (retriesLeft > 0 && retryable(error))
            options.onRetry?.(what, error, retriesLeft);
        },
      },
    );
  } catch (error) {
    if (error instanceof VipError || !retryable(error)) throw error;
    throw new VipError(
      ERRORS.NETWORK.HTTP.RETRIES_EXHAUSTED,
      { what, attempts, reason: reasonOf(error) },
      error,
    );
  }
}
