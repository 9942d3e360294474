import type { NetworkConfig } from "hardhat/types/config";

import { VipError } from "../errors.js";

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

/** A call's failure inside a batch, with the node's code and message. */
class BatchCallError extends VipError {
  constructor(
    message: string,
    readonly code: unknown,
  ) {
    super(message);
  }
}

/**
 * A batch transport to an HTTP network's node (its URL, headers and timeout
 * from the Hardhat config), or none for Hardhat's in-process network. Hardhat's
 * provider sends one call per request; a batch of block headers is one round
 * trip instead of a hundred, which a node far away, or one that also answers
 * the logs, pays for per request. The URL can hold an API key: no message
 * names it.
 */
export async function batchTransport(
  config: NetworkConfig,
): Promise<BatchTransport | undefined> {
  if (config.type !== "http") return undefined;
  const url = await config.url.get();
  const { httpHeaders, timeout } = config;
  return async (calls) => {
    if (calls.length === 0) return [];
    const response = await fetch(url, {
      method: "POST",
      headers: { ...httpHeaders, "content-type": "application/json" },
      body: JSON.stringify(
        calls.map((call, id) => ({ jsonrpc: "2.0", id, ...call })),
      ),
      signal: AbortSignal.timeout(timeout),
    });
    const text = await response.text();
    if (!response.ok)
      throw new VipError(
        `the node answered a batch of ${calls.length} with HTTP ${response.status}: ${text.slice(0, 200)}`,
      );
    const answer = JSON.parse(text) as Answer | Answer[];
    if (!Array.isArray(answer))
      // A node that refuses the batch as a whole answers one error object.
      throw new BatchCallError(
        `the node refused a batch of ${calls.length}: ${messageOf(answer.error) ?? text.slice(0, 200)}`,
        answer.error?.code,
      );
    const byId = new Map<unknown, Answer>();
    for (const item of answer) byId.set(item.id, item);
    return calls.map((call, id) => {
      const item = byId.get(id);
      if (item === undefined)
        throw new VipError(
          `the node's answer to a batch of ${calls.length} lacks ${call.method} #${id}`,
        );
      if (item.error !== undefined && item.error !== null)
        throw new BatchCallError(
          `${call.method}: ${messageOf(item.error) ?? JSON.stringify(item.error)}`,
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

function messageOf(error: Answer["error"]): string | undefined {
  return typeof error?.message === "string" ? error.message : undefined;
}
