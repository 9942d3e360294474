import type { EIP1193Provider } from "hardhat/types/providers";

import { ERRORS } from "../error-catalog.js";
import { causeChain, defined, isVipError, VipError } from "../errors.js";
import { safeText } from "../output.js";
import type { BatchTransport } from "./batch.js";
import type { RpcLog } from "./decode.js";
import type { TxReceipt } from "./log-places.js";
import { isTransient, withRetry } from "../network/retry.js";

/** What the index asks a node through: an EIP-1193 provider's `request`. */
export type JsonRpcRequester = Pick<EIP1193Provider, "request">;

/** A rollup block's place: its number, hash and own timestamp. */
export interface BlockHeader {
  number: bigint;
  hash: string;
  time: bigint;
}

/** Block headers and receipts in one batch request (minievm takes up to 1,000). */
const READS_PER_BATCH = 100;
/** Block headers and receipts asked for at once where the network takes no batches. */
const READS_AT_ONCE = 8;

/** One read of a batch: its call, and what it reads (for errors and warnings). */
interface Read {
  method: string;
  params: unknown[];
  what: string;
  /** The block a header read is of. */
  block?: bigint;
}

/**
 * The rollup's JSON-RPC as the index reads it: every request retried with
 * backoff on transient faults (a reset, a 5xx, a timeout); block headers and
 * transaction receipts in batches where the network is reached over HTTP.
 */
export class RollupReader {
  /** Requests that failed and were retried, by method. */
  readonly retried = new Map<string, number>();

  readonly #provider: JsonRpcRequester;
  readonly #onRetry?: (what: string, error: unknown) => void | undefined;
  #batch?: BatchTransport | undefined;

  constructor(
    provider: JsonRpcRequester,
    onRetry?: (what: string, error: unknown) => void,
    batch?: BatchTransport,
  ) {
    this.#provider = provider;
    this.#onRetry = onRetry;
    this.#batch = batch;
  }

  /** The chain's id; an answer that is not a quantity is an error. */
  async chainId(): Promise<bigint> {
    const answer = await this.#request("eth_chainId", [], "the chain id");
    if (typeof answer !== "string" || !/^0x[0-9a-fA-F]+$/.test(answer))
      throw new VipError(ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER, {
        what: "eth_chainId",
        field: "the answer",
        problem: `is not a quantity: ${safeText(JSON.stringify(answer) ?? "undefined", 80)}`,
      });
    return BigInt(answer);
  }

  async head(): Promise<bigint> {
    return BigInt(
      (await this.#request(
        "eth_blockNumber",
        [],
        "the latest block number",
      )) as string,
    );
  }

  /** The block's header, or undefined if the node does not have it. */
  async block(number: bigint): Promise<BlockHeader | undefined> {
    return header(
      number,
      await this.#request(
        "eth_getBlockByNumber",
        [`0x${number.toString(16)}`, false],
        `block ${number}`,
      ),
    );
  }

  /**
   * The headers of `numbers`, in order (undefined where the node does not
   * have the block): a batch request per 100 where the network takes
   * batches, else 8 requests at a time.
   */
  async blocks(numbers: bigint[]): Promise<(BlockHeader | undefined)[]> {
    return (await this.blocksAndReceipts(numbers, [])).headers;
  }

  /**
   * The headers of `numbers` and the receipts of the transactions `hashes`,
   * in order (undefined where the node has none), read together: one batch
   * request per 100 of them, so an answer's receipts cost no round trip of
   * their own.
   */
  async blocksAndReceipts(
    numbers: bigint[],
    hashes: string[],
  ): Promise<{
    headers: (BlockHeader | undefined)[];
    receipts: (TxReceipt | undefined)[];
  }> {
    const answers = await this.#read([
      ...numbers.map((n): Read => ({
        method: "eth_getBlockByNumber",
        params: [`0x${n.toString(16)}`, false],
        what: `block ${n}`,
        block: n,
      })),
      ...hashes.map((hash): Read => ({
        method: "eth_getTransactionReceipt",
        params: [hash],
        what: `the receipt of transaction ${hash}`,
      })),
    ]);
    return {
      headers: numbers.map((n, i) => header(n, answers[i])),
      receipts: hashes.map((hash, i) =>
        receipt(hash, answers[numbers.length + i]),
      ),
    };
  }

  /**
   * The answers to `reads`, in order: a batch request per 100 where the
   * network takes batches, else 8 requests at a time. A gateway that takes
   * no batches (HTTP 400 or 405, one error for the whole batch), or a call of
   * a batch failing after its retries: from there on, a request per read, as
   * without batches, whose errors name what was read.
   */
  async #read(reads: Read[]): Promise<unknown[]> {
    const answers: unknown[] = [];
    for (let i = 0; i < reads.length;) {
      const batch = this.#batch;
      const part = reads.slice(
        i,
        i + (batch === undefined ? READS_AT_ONCE : READS_PER_BATCH),
      );
      if (batch === undefined) {
        answers.push(
          ...(await Promise.all(
            part.map((r) => this.#request(r.method, r.params, r.what)),
          )),
        );
        i += part.length;
        continue;
      }
      try {
        const calls = part.map(({ method, params }) => ({ method, params }));
        answers.push(
          ...(await this.#retrying(
            part[0]?.method ?? "",
            describeReads(part),
            () => batch(calls),
          )),
        );
        i += part.length;
      } catch (error) {
        this.#batch = undefined;
        this.#onRetry?.(`${describeReads(part)} in one batch request`, error);
      }
    }
    return answers;
  }

  /** As `block`, but a block the node lacks is an error naming it. */
  async existingBlock(number: bigint, why: string): Promise<BlockHeader> {
    const [found] = await this.existingBlocks([number], () => why);
    return defined(
      found,
      "existingBlocks answers a header for each number it is given, or throws",
    );
  }

  /** As `blocks`, but a block the node lacks is an error naming it. */
  async existingBlocks(
    numbers: bigint[],
    why: (number: bigint) => string,
  ): Promise<BlockHeader[]> {
    return (await this.existingBlocksAndReceipts(numbers, why, [])).headers;
  }

  /**
   * As `blocksAndReceipts`, but a block the node lacks is an error naming
   * it (a receipt the node lacks is left to the caller, which knows the
   * transaction's block).
   */
  async existingBlocksAndReceipts(
    numbers: bigint[],
    why: (number: bigint) => string,
    hashes: string[],
  ): Promise<{ headers: BlockHeader[]; receipts: (TxReceipt | undefined)[] }> {
    const { headers, receipts } = await this.blocksAndReceipts(numbers, hashes);
    return {
      headers: numbers.map((number, i) => {
        const found = headers[i];
        if (found === undefined)
          throw new VipError(ERRORS.INDEXER.NODE.BLOCK_NOT_ON_NODE, {
            number,
            why: why(number),
          });
        return found;
      }),
      receipts,
    };
  }

  /**
   * `eth_getLogs` for [from, to]. Faults are retried here; a refusal of the
   * range's size (minievm's `block range exceeded N`, a too-large answer, a
   * timeout) is left to the caller, which narrows the range.
   */
  async logs(
    from: bigint,
    to: bigint,
    addresses: string[],
    topics: string[],
  ): Promise<RpcLog[]> {
    return (await this.#request(
      "eth_getLogs",
      [
        {
          fromBlock: `0x${from.toString(16)}`,
          toBlock: `0x${to.toString(16)}`,
          address: addresses,
          topics: [topics],
        },
      ],
      `logs of blocks ${from}–${to}`,
      (error) => !isRangeRefusal(error),
    )) as RpcLog[];
  }

  async #request(
    method: string,
    params: unknown[],
    what: string,
    alsoRetryable: (error: unknown) => boolean = () => true,
  ): Promise<unknown> {
    return this.#retrying(
      method,
      what,
      () => this.#provider.request({ method, params }),
      alsoRetryable,
    );
  }

  async #retrying<T>(
    method: string,
    what: string,
    send: () => Promise<T>,
    alsoRetryable: (error: unknown) => boolean = () => true,
  ): Promise<T> {
    return withRetry(what, send, {
      retries: 8,
      minDelayMs: 100,
      maxDelayMs: 5_000,
      retryable: (error) => alsoRetryable(error) && isFault(error),
      onRetry: (_what, error) => {
        this.retried.set(method, (this.retried.get(method) ?? 0) + 1);
        this.#onRetry?.(what, error);
      },
    });
  }
}

/** An `eth_getBlockByNumber` answer as a header; undefined for none. */
function header(number: bigint, answer: unknown): BlockHeader | undefined {
  const block = answer as { hash?: string; timestamp?: string } | null;
  if (block === null || block === undefined || block.hash === undefined)
    return undefined;
  return {
    number,
    hash: block.hash.toLowerCase(),
    time: BigInt(block.timestamp ?? "0x0"),
  };
}

/**
 * A batch of reads as a warning names it: "blocks 1–100", "3 transaction
 * receipt(s)", or both joined by "and".
 */
function describeReads(part: Read[]): string {
  const blocks = part.flatMap((r) => (r.block === undefined ? [] : [r.block]));
  const receipts = part.length - blocks.length;
  return [
    blocks.length === 0 ? "" : `blocks ${blocks[0]}–${blocks.at(-1)}`,
    receipts === 0 ? "" : `${receipts} transaction receipt(s)`,
  ]
    .filter((text) => text !== "")
    .join(" and ");
}

/**
 * An `eth_getTransactionReceipt` answer as the index reads it; undefined for
 * none. A receipt without `blockHash` or `logs` is an error naming it.
 */
function receipt(hash: string, answer: unknown): TxReceipt | undefined {
  if (answer === null || answer === undefined) return undefined;
  const { blockHash, logs } = answer as { blockHash?: unknown; logs?: unknown };
  if (typeof blockHash !== "string" || !Array.isArray(logs))
    throw new VipError(ERRORS.INDEXER.NODE.RECEIPT_MALFORMED, { hash });
  return {
    blockHash,
    logIndices: logs.map((log) =>
      String((log as { logIndex?: unknown }).logIndex),
    ),
  };
}

/**
 * The node refused the range as too wide or its answer as too large: the
 * range is halved (or set to the limit the node names).
 */
export function isRangeRefusal(error: unknown): boolean {
  return RANGE_REFUSAL.test(causeChainText(error));
}

/** How nodes word a refusal of a range's size (their messages are all there is). */
const RANGE_REFUSAL = new RegExp(
  [
    "block range exceeded",
    "range (is )?too (large|wide)",
    "too many (blocks|results|logs)",
    "response (size|is too)",
    "query returned more than",
    "limit exceeded",
    "timed? ?out|timeout|context deadline",
  ].join("|"),
  "i",
);

/** HTTP statuses of a batch request worth another attempt. */
const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);

/** The limit minievm names in `block range exceeded <N>`. */
export function rangeLimit(error: unknown): bigint | undefined {
  const match = /block range exceeded:?\s*(\d+)/i.exec(causeChainText(error));
  return match === null ? undefined : BigInt(match[1] ?? "0");
}

/**
 * A request worth another attempt: what every client here retries (a dropped
 * connection, a timeout, a gateway's 5xx, a rate limit), and an answer cut
 * short or a node's internal error, which a log query on a busy node gives.
 * A refusal of the request itself is not.
 */
function isFault(error: unknown): boolean {
  // Said by the descriptor where the error is this tool's (their text names
  // the node's origin, which may hold "json" or "500").
  if (
    isVipError(error, ERRORS.INDEXER.BATCH.BATCH_HTTP_STATUS) ||
    isVipError(error, ERRORS.NETWORK.HTTP.HTTP_STATUS)
  )
    return RETRIED_STATUSES.has(Number(error.params.status));
  if (isVipError(error, ERRORS.NETWORK.HTTP.NOT_JSON)) return true;
  if (isVipError(error, ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER)) return false;
  // A call the node failed: the node's words are its reason.
  const text =
    isVipError(error, ERRORS.INDEXER.BATCH.BATCH_REFUSED) ||
    isVipError(error, ERRORS.INDEXER.BATCH.BATCH_CALL_FAILED) ||
    isVipError(error, ERRORS.INDEXER.NODE.CALL_FAILED)
      ? String(error.params.reason)
      : causeChainText(error);
  if (
    /invalid (argument|params)|method not found|exceed max (addresses|topics)/i.test(
      text,
    )
  )
    return false;
  return (
    isTransient(error) ||
    /\b500\b|internal error|unexpected (end|token)|json/i.test(text)
  );
}

/** Every message along the cause chain and its data, for matching a node's refusal. */
function causeChainText(error: unknown): string {
  const parts: string[] = [];
  for (const e of causeChain(error)) {
    if (e instanceof Error) parts.push(e.message);
    else if (typeof e === "string") parts.push(e);
    const data = (e as { data?: unknown }).data;
    if (typeof data === "string") parts.push(data);
  }
  return parts.join(" | ");
}
