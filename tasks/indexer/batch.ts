import type { NetworkConfig } from "hardhat/types/config";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { safeText } from "../output.js";
import {
  type JsonRpcAnswer,
  NodeCallError,
  type NodePost,
  nodePost,
  nodeReason,
} from "./node-post.js";

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

/**
 * A batch transport to an HTTP network's node, or none for Hardhat's
 * in-process network. Hardhat's provider sends one call per request; a batch
 * of block headers is one round trip instead of a hundred, which a node far
 * away, or one that also answers the logs, pays for per request. Sent as
 * `nodePost` sends.
 */
export async function batchTransport(
  config: NetworkConfig,
): Promise<BatchTransport | undefined> {
  if (config.type !== "http") return undefined;
  return batchesOver(await nodePost(config));
}

/** Batches sent with `post`. */
export function batchesOver(post: NodePost): BatchTransport {
  return async (calls) => {
    if (calls.length === 0) return [];
    const { status, text } = await post(
      calls.map((call, id) => ({ jsonrpc: "2.0", id, ...call })),
    );
    if (status < 200 || status >= 300)
      throw new VipError(ERRORS.INDEXER.BATCH.BATCH_HTTP_STATUS, {
        count: calls.length,
        status,
        body: text === "" ? "" : `: ${safeText(text, 200)}`,
      });
    const answer = JSON.parse(text) as JsonRpcAnswer | JsonRpcAnswer[];
    if (!Array.isArray(answer))
      // A node that refuses the batch as a whole answers one error object.
      throw new NodeCallError(
        ERRORS.INDEXER.BATCH.BATCH_REFUSED,
        {
          count: calls.length,
          reason: safeText(
            typeof answer.error?.message === "string"
              ? answer.error.message
              : text,
            200,
          ),
        },
        answer.error?.code,
      );
    return resultsInOrder(calls, answer);
  };
}

/** Each call's result, by its id; a call failed or left unanswered fails them all. */
function resultsInOrder(
  calls: BatchCall[],
  answer: JsonRpcAnswer[],
): unknown[] {
  const byId = new Map<unknown, JsonRpcAnswer>();
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
      throw new NodeCallError(
        ERRORS.INDEXER.BATCH.BATCH_CALL_FAILED,
        { method: call.method, reason: nodeReason(item.error) },
        item.error.code,
      );
    return item.result;
  });
}
