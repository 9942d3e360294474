import {
  getDispatcher,
  postJsonRequest,
} from "@nomicfoundation/hardhat-utils/request";
import type { HttpNetworkConfig } from "hardhat/types/config";

import type { ERRORS } from "../error-catalog.js";
import { causeChain, type ErrorParams, VipError } from "../errors.js";
import { safeText } from "../output.js";

/**
 * Posts a JSON-RPC body (one call, or a batch) to the network's node and
 * answers the HTTP status and the answer's text. An HTTP error status comes
 * back as it is, with its body, whatever undici made of it.
 */
export type NodePost = (
  body: unknown,
) => Promise<{ status: number; text: string }>;

/**
 * Posts to an HTTP network's node the way Hardhat's own HTTP provider sends
 * (hardhat-utils' request: the network's `url`, credentials in it as Basic
 * authentication, its `httpHeaders` and `timeout`, the proxy from
 * HTTPS_PROXY / NO_PROXY), over one pool of connections. hardhat-utils'
 * errors name the URL's origin alone, so a key in the path or the query
 * never shows.
 */
export async function nodePost(config: HttpNetworkConfig): Promise<NodePost> {
  const url = await config.url.get();
  const { httpHeaders, timeout } = config;
  const dispatcher = await getDispatcher(url, { pool: true, timeout });
  return async (body) => {
    let response;
    try {
      response = await postJsonRequest(
        url,
        body,
        { extraHeaders: httpHeaders },
        dispatcher,
      );
    } catch (error) {
      // hardhat-utils reports a status as undici's response error, which
      // reads like a connection fault: said as the status it is, a 503 is
      // retried and a 405 (no batches here) is not.
      const status = statusOf(error);
      if (status === undefined) throw error;
      return { status, text: bodyOf(error) };
    }
    return { status: response.statusCode, text: await response.body.text() };
  };
}

/** A JSON-RPC answer to one call, as far as this tool reads it. */
export interface JsonRpcAnswer {
  id?: unknown;
  result?: unknown;
  error?: { message?: unknown; code?: unknown; data?: unknown } | null;
}

/** A node's error said in its own words (its message, else all of it), escaped and cut. */
export function nodeReason(error: JsonRpcAnswer["error"]): string {
  return safeText(
    typeof error?.message === "string" ? error.message : JSON.stringify(error),
  );
}

type CallFailure =
  | typeof ERRORS.INDEXER.BATCH.BATCH_REFUSED
  | typeof ERRORS.INDEXER.BATCH.BATCH_CALL_FAILED
  | typeof ERRORS.INDEXER.NODE.CALL_FAILED;

/**
 * A call the node failed, alone or in a batch, with the node's code and, for
 * a call alone, its `data` (where some nodes say why a range was refused).
 */
export class NodeCallError<D extends CallFailure> extends VipError<D> {
  constructor(
    descriptor: D,
    params: ErrorParams<D>,
    readonly rpcCode: unknown,
    readonly data?: unknown,
  ) {
    // ErrorParams<D> are D's arguments, which TypeScript cannot see while D
    // is open; the lint rule sees them.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- see above
    super(descriptor, params as never);
  }
}

/**
 * The body of an answer with an error status, as undici's response error
 * keeps it (parsed when it was JSON), or "".
 */
function bodyOf(error: unknown): string {
  for (const e of causeChain(error, 4)) {
    const body = (e as { body?: unknown }).body;
    if (typeof body === "string") return body;
    if (typeof body === "object" && body !== null) return JSON.stringify(body);
  }
  return "";
}

/** The HTTP status an error of hardhat-utils' request carries, if any. */
function statusOf(error: unknown): number | undefined {
  for (const e of causeChain(error, 4)) {
    const status = (e as { statusCode?: unknown }).statusCode;
    if (typeof status === "number") return status;
  }
  return undefined;
}
