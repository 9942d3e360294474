import pRetry from "p-retry";

import { firstLine, VipError } from "../errors.js";

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
    const code = (e as { code?: unknown }).code;
    const text = `${typeof code === "string" || typeof code === "number" ? code : ""} ${e instanceof Error ? e.message : typeof e === "string" ? e : ""}`;
    if (
      /revert|execution reverted|invalid (argument|params)|nonce too low|insufficient funds/i.test(
        text,
      )
    )
      return false;
    if (TRANSIENT.some((pattern) => pattern.test(text))) return true;
    e =
      (e as { cause?: unknown; error?: unknown }).cause ??
      (e as { error?: unknown }).error;
  }
  return false;
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
      `${what} failed ${attempts} time(s), the last with: ${firstLine(error)}`,
      error instanceof Error ? error : undefined,
    );
  }
}
