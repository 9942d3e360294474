import { STATUS_CODES } from "node:http";

import type { HttpNetworkConfig } from "hardhat/types/config";

import { batchesOver, type BatchTransport } from "./batch.js";
import {
  type JsonRpcAnswer,
  NodeCallError,
  type NodePost,
  nodePost,
  nodeReason,
} from "./node-post.js";
import type { JsonRpcRequester } from "./rpc.js";
import { describeEndpoint } from "../clients/http.js";
import { ERRORS } from "../error-catalog.js";
import { causeChain, VipError } from "../errors.js";
import { safeText } from "../output.js";

/**
 * What the scoring commands read an HTTP network's node with, without a
 * Hardhat network connection: calls one at a time (`provider`) and in
 * batches (`batch`), over one pool of connections. A connection runs every
 * plugin's connection hook, which loads their modules (ethers' provider,
 * chai's matchers, EDR): 0.13 s of each command that only reads the chain.
 * The reader retries what is worth it (see `RollupReader`).
 */
export interface HttpReads {
  provider: JsonRpcRequester;
  batch: BatchTransport;
}

/** The reads of an HTTP network's node, sent as `nodePost` sends. */
export async function httpReads(config: HttpNetworkConfig): Promise<HttpReads> {
  const post = await nodePost(config);
  const origin = describeEndpoint(await config.url.get(), "");
  return { provider: callsAlone(post, origin), batch: batchesOver(post) };
}

/**
 * One JSON-RPC call a request, as Hardhat's HTTP provider sends it. What
 * fails on the way is an error of this tool's catalog naming the node's
 * origin, which the reader's retries tell apart by its descriptor: the node
 * unreachable, an HTTP status, an answer that is not JSON-RPC. A call the
 * node failed carries its message, code and data, where a refused range is
 * recognized.
 */
function callsAlone(post: NodePost, origin: string): JsonRpcRequester {
  let nextId = 1;
  return {
    async request({ method, params = [] }) {
      let answered;
      try {
        answered = await post({ jsonrpc: "2.0", id: nextId++, method, params });
      } catch (error) {
        throw new VipError(
          ERRORS.NETWORK.HTTP.UNREACHABLE,
          { url: origin, reason: faultOf(error) },
          error,
        );
      }
      return resultOf(method, origin, answered);
    },
  };
}

/** A call's result from the node's answer, or the error the answer is. */
function resultOf(
  method: string,
  origin: string,
  { status, text }: { status: number; text: string },
): unknown {
  if (status < 200 || status >= 300)
    // The status's name too: a gateway's "504 Gateway Timeout" to a log
    // query is a range too wide for it, which the reader narrows.
    throw new VipError(ERRORS.NETWORK.HTTP.HTTP_STATUS, {
      url: origin,
      status,
      reason: [STATUS_CODES[status] ?? "", safeText(text, 200)]
        .filter((part) => part !== "")
        .join(": "),
    });
  let answer: JsonRpcAnswer | null;
  try {
    answer = JSON.parse(text) as JsonRpcAnswer | null;
  } catch {
    throw new VipError(ERRORS.NETWORK.HTTP.NOT_JSON, {
      url: origin,
      body: safeText(text, 200),
    });
  }
  if (
    typeof answer !== "object" ||
    answer === null ||
    Array.isArray(answer) ||
    !("result" in answer || "error" in answer)
  )
    throw new VipError(ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER, {
      what: `${method} at ${origin}`,
      field: "the answer",
      problem: `is not a JSON-RPC response (no result, no error): ${safeText(text, 120)}`,
    });
  if (answer.error !== undefined && answer.error !== null)
    throw new NodeCallError(
      ERRORS.INDEXER.NODE.CALL_FAILED,
      { method, reason: nodeReason(answer.error) },
      answer.error.code,
      answer.error.data,
    );
  return answer.result;
}

/**
 * What went wrong on the way: the system's code where there is one, else
 * hardhat-utils' message, which names the origin alone.
 */
function faultOf(error: unknown): string {
  for (const e of causeChain(error, 4)) {
    // A system's or TLS's code: ECONNRESET, UND_ERR_SOCKET, CERT_HAS_EXPIRED.
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z][A-Z0-9_]{3,}$/.test(code))
      return code;
  }
  return safeText(error instanceof Error ? error.message : String(error), 200);
}
