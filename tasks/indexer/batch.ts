import {
  getDispatcher,
  postJsonRequest,
} from "@nomicfoundation/hardhat-utils/request";
import type { NetworkConfig } from "hardhat/types/config";

import { ERRORS } from "../error-catalog.js";
import { type ErrorParams, VipError } from "../errors.js";
import { safeText } from "../output.js";

/** One JSON-RPC call of a batch. */
interface BatchCall {
  method: string;
  params: unknown[];
}

/**
 * Sends calls as one JSON-RPC 2.0 batch and returns their results in order;
 * throws when the request fails or any call of it does (the caller retries
 * the whole batch: every call the index batches is a read).
 */
export type BatchTransport = (calls: BatchCall[]) => Promise<unknown[]>;

type BatchFailure =
  | typeof ERRORS.INDEXER.BATCH.BATCH_REFUSED
  | typeof ERRORS.INDEXER.BATCH.BATCH_CALL_FAILED;

/** A call's failure inside a batch, with the node's code and message. */
class BatchCallError<D extends BatchFailure> extends VipError<D> {
  constructor(
    descriptor: D,
    params: ErrorParams<D>,
    readonly rpcCode: unknown,
  ) {
    // ErrorParams<D> are D's arguments, which TypeScript cannot see while D
    // is open; the lint rule sees them.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- see above
    super(descriptor, params as never);
  }
}

/**
 * A batch transport to an HTTP network's node, or none for Hardhat's
 * in-process network. Hardhat's provider sends one call per request; a batch
 * of block headers is one round trip instead of a hundred, which a node far
 * away, or one that also answers the logs, pays for per request. Sent the way
 * Hardhat's own HTTP provider sends (hardhat-utils' request: the network's
 * `url`, credentials in it as Basic authentication, its `httpHeaders` and
 * `timeout`, the proxy from HTTPS_PROXY / NO_PROXY); its errors name the
 * URL's origin alone, so a key in the path or the query never shows.
 */
export async function batchTransport(
  config: NetworkConfig,
): Promise<BatchTransport | undefined> {
  if (config.type !== "http") return undefined;
  const url = await config.url.get();
  const { httpHeaders, timeout } = config;
  const dispatcher = await getDispatcher(url, { pool: true, timeout });
  return async (calls) => {
    if (calls.length === 0) return [];
    let response;
    try {
      response = await postJsonRequest(
        url,
        calls.map((call, id) => ({ jsonrpc: "2.0", id, ...call })),
        { extraHeaders: httpHeaders },
        dispatcher,
      );
    } catch (error) {
      // hardhat-utils reports a status as undici's response error, which
      // reads like a connection fault: said as the status it is, a 503 is
      // retried and a 405 (no batches here) is not.
      const status = statusOf(error);
      if (status === undefined) throw error;
      throw new VipError(ERRORS.INDEXER.BATCH.BATCH_HTTP_STATUS, {
        count: calls.length,
        status,
        body: "",
      });
    }
    const text = await response.body.text();
    if (response.statusCode < 200 || response.statusCode >= 300)
      throw new VipError(ERRORS.INDEXER.BATCH.BATCH_HTTP_STATUS, {
        count: calls.length,
        status: response.statusCode,
        body: `: ${safeText(text, 200)}`,
      });
    const answer = JSON.parse(text) as Answer | Answer[];
    if (!Array.isArray(answer))
      // A node that refuses the batch as a whole answers one error object.
      throw new BatchCallError(
        ERRORS.INDEXER.BATCH.BATCH_REFUSED,
        {
          count: calls.length,
          reason: safeText(answerMessage(answer.error) ?? text, 200),
        },
        answer.error?.code,
      );
    const byId = new Map<unknown, Answer>();
    for (const item of answer) byId.set(item.id, item);
    return calls.map((call, id) => {
      const item = byId.get(id);
      if (item === undefined)
        throw new VipError(ERRORS.INDEXER.BATCH.BATCH_ANSWER_INCOMPLETE, {
          count: calls.length,
          method: call.method,
          id,
        });
      if (item.error !== undefined && item.error !== null)
        throw new BatchCallError(
          ERRORS.INDEXER.BATCH.BATCH_CALL_FAILED,
          {
            method: call.method,
            reason: safeText(
              answerMessage(item.error) ?? JSON.stringify(item.error),
            ),
          },
          item.error.code,
        );
      return item.result;
    });
  };
}

interface Answer {
  id?: unknown;
  result?: unknown;
  error?: { message?: unknown; code?: unknown } | null;
}

function answerMessage(error: Answer["error"]): string | undefined {
  return typeof error?.message === "string" ? error.message : undefined;
}

/** The HTTP status an error of hardhat-utils' request carries, if any. */
function statusOf(error: unknown): number | undefined {
  for (
    let e: unknown = error, depth = 0;
    e !== undefined && e !== null && depth < 4;
    depth++
  ) {
    const status = (e as { statusCode?: unknown }).statusCode;
    if (typeof status === "number") return status;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
