import { ensureError } from "@nomicfoundation/hardhat-utils/error";
import type { z } from "zod";

import { ERRORS } from "../error-catalog.js";
import { VipError, defined } from "../errors.js";
import { safeText } from "../output.js";

const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * How an endpoint is named in messages: scheme, host and the path this tool
 * appended, never the configured URL's own path, query or credentials, which
 * commonly hold API keys.
 */
export function describeEndpoint(baseUrl: string, path: string): string {
  try {
    return new URL(baseUrl).origin + path;
  } catch {
    return `<invalid URL>${path}`;
  }
}

/**
 * `baseUrl` joined with `path`, keeping any path the base URL already has (e.g.
 * a gateway prefix).
 */
export function joinUrl(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, "") + path;
}

export interface JsonRequest {
  method: "GET" | "POST";
  body?: unknown;
  timeoutMs?: number;
  /**
   * HTTP statuses that mean "there is no such thing (yet)": answered as
   * undefined instead of failing (e.g. [404]).
   */
  undefinedFor?: number[];
}

/**
 * Sends one HTTP request and returns the parsed JSON body. Every failure names
 * the endpoint and what went wrong: unreachable, timed out, an HTTP error
 * status (with the start of the body), or a body that is not JSON.
 */
export async function requestJson(
  baseUrl: string,
  path: string,
  request: JsonRequest,
): Promise<unknown> {
  const where = describeEndpoint(baseUrl, path);
  let response: Response;
  try {
    response = await fetch(joinUrl(baseUrl, path), {
      method: request.method,
      headers:
        request.body === undefined
          ? {}
          : { "content-type": "application/json" },
      body:
        request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(request.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
  } catch (error) {
    ensureError(error);
    const reason =
      error.name === "TimeoutError"
        ? `no answer within ${(request.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000} s`
        : (causeCode(error) ?? error.message);
    throw new VipError(
      ERRORS.NETWORK.HTTP.UNREACHABLE,
      { url: where, reason },
      error,
    );
  }
  const text = await response.text();
  if (request.undefinedFor?.includes(response.status) === true)
    return undefined;
  if (!response.ok) {
    throw new VipError(ERRORS.NETWORK.HTTP.HTTP_STATUS, {
      url: where,
      status: response.status,
      reason: errorMessage(text),
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new VipError(ERRORS.NETWORK.HTTP.NOT_JSON, {
      url: where,
      body: snippet(text),
    });
  }
}

/**
 * Checks `value` against `schema`; a mismatch names the first field that is
 * missing or wrong.
 */
export function expectShape<T>(
  schema: z.ZodType<T>,
  value: unknown,
  what: string,
): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = defined(
    parsed.error.issues[0],
    "a failed parse has at least one issue",
  );
  const field = issue.path.length === 0 ? "the answer" : issue.path.join(".");
  const problem =
    issue.code === "invalid_type" && issue.received === "undefined"
      ? "is missing"
      : issue.message;
  throw new VipError(ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER, {
    what,
    field,
    problem,
  });
}

/** The system error code (ECONNREFUSED, …) under fetch's "fetch failed". */
export function causeCode(error: Error): string | undefined {
  const cause = error.cause;
  return typeof cause === "object" &&
    cause !== null &&
    "code" in cause &&
    typeof cause.code === "string"
    ? cause.code
    : undefined;
}

/**
 * A chain's or gateway's error body said briefly: the `message` of a Cosmos
 * `{code, message, details}` body, else its start.
 */
function errorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === "string" && body.message !== "")
      return snippet(body.message);
  } catch {
    // Not JSON: the text itself says what happened.
  }
  return snippet(text);
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length === 0 ? "(empty body)" : safeText(flat, 200);
}
