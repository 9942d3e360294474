import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * How minievm's JSON-RPC differs from hardhat node's where the index reads it
 * (initia-labs/minievm `jsonrpc/namespaces/eth/filters`, shared notes facts
 * §8), applied in front of a hardhat node:
 * - `maxRange`: `eth_getLogs` over more blocks is refused with
 *   `block range exceeded <N>` (minievm's `filter-max-block-range`);
 * - `prunedBelow`: block headers below it are gone; `eth_getBlockByNumber`
 *   answers null, and `eth_getLogs` walks from its first block, stops at the
 *   first missing header and answers what it found so far: nothing, without
 *   an error;
 * - `faultRate`: that share of requests fails on the way (a reset connection
 *   or an HTTP 503), chosen by a seeded generator so a run is repeatable;
 * - `logsDelayMs`: each `eth_getLogs` is answered (or refused) that much
 *   later, as a busy node answers: a test then knows the least time an
 *   index's requests took from how many it has seen;
 * - `logIndex: "transaction"`: every `logIndex` in answers to `eth_getLogs`
 *   and `eth_getTransactionReceipt` (batched or not) is numbered within its
 *   transaction, as minievm numbers it through v1.2.18 (`indexer/abci.go`:
 *   `log.Index = uint(idx)` per receipt); hardhat node numbers within the
 *   block, as minievm does from v1.3. Each log's place in its transaction is
 *   read from the node's receipt. `transactionIndex` stays as the node gives
 *   it.
 */
export interface MinievmRules {
  maxRange?: number;
  prunedBelow?: number;
  faultRate?: number;
  logsDelayMs?: number;
  seed?: number;
  logIndex?: "block" | "transaction";
}

export interface MinievmProxy {
  url: string;
  rules: MinievmRules;
  /** Requests failed on purpose, and `eth_getLogs` refused for their range. */
  faults: number;
  rangeRefusals: number;
  /** Every `eth_getLogs` filter asked for, in order. */
  logFilters: { fromBlock?: string; toBlock?: string }[];
  /** Requests that asked for block headers: one each, or a batch of them. */
  headerRequests: { single: number; batched: number };
  /**
   * `eth_getTransactionReceipt` calls asked for, alone or in a batch, and the
   * batches that also asked for block headers.
   */
  receiptCalls: { single: number; batched: number; withHeaders: number };
  close(): Promise<void>;
}

interface RpcRequest {
  id: unknown;
  method: string;
  params?: unknown[];
}

/** What the proxy reads and rewrites of a log. */
interface RpcLogPlace {
  transactionHash: string;
  logIndex: string;
}

interface RpcReceipt {
  logs: RpcLogPlace[];
}

export async function startMinievmProxy(
  upstream: string,
  rules: MinievmRules = {},
): Promise<MinievmProxy> {
  let state = rules.seed ?? 1;
  const random = () => {
    // mulberry32: a small seeded generator, enough to spread faults.
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const proxy: MinievmProxy = {
    url: "",
    rules,
    faults: 0,
    rangeRefusals: 0,
    logFilters: [],
    headerRequests: { single: 0, batched: 0 },
    receiptCalls: { single: 0, batched: 0, withHeaders: 0 },
    close: async () => {},
  };
  const forward = async (body: string): Promise<string> => {
    const answer = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    return answer.text();
  };
  /** The node's receipts, by transaction hash: a log's place in its transaction. */
  const receipts = new Map<string, Promise<RpcReceipt | null>>();
  const receiptOf = (hash: string) => {
    let receipt = receipts.get(hash);
    if (receipt === undefined) {
      receipt = forward(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "eth_getTransactionReceipt",
          params: [hash],
        }),
      ).then(
        (text) => (JSON.parse(text) as { result: RpcReceipt | null }).result,
      );
      receipts.set(hash, receipt);
    }
    return receipt;
  };
  /** The node's answer with each log numbered within its transaction. */
  const renumbered = async (request: RpcRequest): Promise<string> => {
    const answer = JSON.parse(await forward(JSON.stringify(request))) as {
      result?: unknown;
    };
    const logs: RpcLogPlace[] =
      request.method === "eth_getLogs"
        ? ((answer.result ?? []) as RpcLogPlace[])
        : (((answer.result ?? { logs: [] }) as RpcReceipt | null)?.logs ?? []);
    for (const log of logs) {
      const receipt = await receiptOf(log.transactionHash);
      const place =
        receipt?.logs.findIndex((l) => l.logIndex === log.logIndex) ?? -1;
      if (place < 0)
        throw new Error(`no receipt place for ${log.transactionHash}`);
      log.logIndex = `0x${place.toString(16)}`;
    }
    return JSON.stringify(answer);
  };
  // Answers as JSON text: what the node says passes through unparsed, so
  // the proxy costs a benchmark little.
  const answer = async (request: RpcRequest): Promise<string> => {
    const { maxRange, prunedBelow } = proxy.rules;
    const error = (message: string) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id: request.id,
        error: { code: -32000, message },
      });
    const result = (value: unknown) =>
      JSON.stringify({ jsonrpc: "2.0", id: request.id, result: value });
    if (
      request.method === "eth_getBlockByNumber" &&
      prunedBelow !== undefined
    ) {
      const tag = String(request.params?.[0]);
      if (/^0x/.test(tag) && Number(BigInt(tag)) < prunedBelow)
        return result(null);
    }
    if (request.method === "eth_getLogs") {
      const filter = (request.params?.[0] ?? {}) as {
        fromBlock?: string;
        toBlock?: string;
      };
      proxy.logFilters.push(filter);
      const delay = proxy.rules.logsDelayMs ?? 0;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const from = Number(BigInt(filter.fromBlock ?? "0x0"));
      const to = Number(BigInt(filter.toBlock ?? "0x0"));
      if (maxRange !== undefined && to - from > maxRange) {
        proxy.rangeRefusals++;
        return error(`block range exceeded ${maxRange}`);
      }
      if (prunedBelow !== undefined && from < prunedBelow) return result([]);
    }
    if (
      proxy.rules.logIndex === "transaction" &&
      (request.method === "eth_getLogs" ||
        request.method === "eth_getTransactionReceipt")
    )
      return renumbered(request);
    return forward(JSON.stringify(request));
  };
  const server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      void (async () => {
        const rate = proxy.rules.faultRate ?? 0;
        if (rate > 0 && random() < rate) {
          proxy.faults++;
          if (random() < 0.5) {
            req.socket.destroy();
            return;
          }
          res.writeHead(503, { "content-type": "text/plain" });
          res.end("service unavailable");
          return;
        }
        try {
          const parsed = JSON.parse(body) as RpcRequest | RpcRequest[];
          const calls = Array.isArray(parsed) ? parsed : [parsed];
          const headers = calls.some(
            (c) => c.method === "eth_getBlockByNumber",
          );
          if (headers)
            proxy.headerRequests[
              Array.isArray(parsed) ? "batched" : "single"
            ]++;
          const receiptCalls = calls.filter(
            (c) => c.method === "eth_getTransactionReceipt",
          ).length;
          proxy.receiptCalls[Array.isArray(parsed) ? "batched" : "single"] +=
            receiptCalls;
          if (headers && receiptCalls > 0) proxy.receiptCalls.withHeaders++;
          const text = Array.isArray(parsed)
            ? `[${(await Promise.all(parsed.map(answer))).join(",")}]`
            : await answer(parsed);
          res.writeHead(200, { "content-type": "application/json" });
          res.end(text);
        } catch {
          req.socket.destroy();
        }
      })();
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve()),
  );
  const { port } = server.address() as AddressInfo;
  proxy.url = `http://127.0.0.1:${port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
