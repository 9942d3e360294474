import type { EIP1193Provider } from "hardhat/types/providers";

import { defined, VipError } from "../errors.js";
import { isTransient, withRetry } from "../network/retry.js";
import type { BatchTransport } from "./batch.js";
import type { RpcLog } from "./decode.js";

/** A rollup block's place: its number, hash and own timestamp. */
export interface BlockHeader {
  number: bigint;
  hash: string;
  time: bigint;
}

/** Block headers in one batch request (minievm takes up to 1,000). */
const HEADERS_PER_BATCH = 100;
/** Block headers asked for at once where the network takes no batches. */
const HEADER_REQUESTS = 8;

/**
 * The rollup's JSON-RPC as the index reads it: every request retried with
 * backoff on transient faults (a reset, a 5xx, a timeout); block headers in
 * batches where the network is reached over HTTP.
 */
export class RollupReader {
  /** Requests that failed and were retried, by method. */
  readonly retried = new Map<string, number>();

  constructor(
    private readonly provider: EIP1193Provider,
    private readonly onRetry?: (what: string, error: unknown) => void,
    private batch?: BatchTransport,
  ) {}

  async head(): Promise<bigint> {
    return BigInt(
      (await this.request(
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
      await this.request(
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
    const headers: (BlockHeader | undefined)[] = [];
    for (let i = 0; i < numbers.length;) {
      const { batch } = this;
      const part = numbers.slice(
        i,
        i + (batch === undefined ? HEADER_REQUESTS : HEADERS_PER_BATCH),
      );
      if (batch === undefined) {
        headers.push(...(await Promise.all(part.map((n) => this.block(n)))));
        i += part.length;
        continue;
      }
      try {
        const answers = await this.retrying(
          "eth_getBlockByNumber",
          `blocks ${part[0]}–${part.at(-1)}`,
          () =>
            batch(
              part.map((n) => ({
                method: "eth_getBlockByNumber",
                params: [`0x${n.toString(16)}`, false],
              })),
            ),
        );
        part.forEach((n, k) => headers.push(header(n, answers[k])));
        i += part.length;
      } catch (error) {
        // A gateway that takes no batches (HTTP 400 or 405, one error for the
        // whole batch), or a call of it failing: from here on, a request per
        // block, as without batches, whose errors name the block.
        this.batch = undefined;
        this.onRetry?.(
          `blocks ${part[0]}–${part.at(-1)} in one batch request`,
          error,
        );
      }
    }
    return headers;
  }

  /** As `block`, but a block the node lacks is an error naming it. */
  async existingBlock(number: bigint, why: string): Promise<BlockHeader> {
    const [found] = await this.existingBlocks([number], () => why);
    return defined(found, "the block's header");
  }

  /** As `blocks`, but a block the node lacks is an error naming it. */
  async existingBlocks(
    numbers: bigint[],
    why: (number: bigint) => string,
  ): Promise<BlockHeader[]> {
    const headers = await this.blocks(numbers);
    return numbers.map((number, i) => {
      const found = headers[i];
      if (found === undefined)
        throw new VipError(
          `block ${number} is not on the rollup's node (${why(number)}): it was pruned (evm.indexer-retain-height) or not produced yet. ` +
            "Index from a node that keeps every block from the source's from-block on (an archive node)",
        );
      return found;
    });
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
    return (await this.request(
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

  private async request(
    method: string,
    params: unknown[],
    what: string,
    alsoRetryable: (error: unknown) => boolean = () => true,
  ): Promise<unknown> {
    return this.retrying(
      method,
      what,
      () => this.provider.request({ method, params }),
      alsoRetryable,
    );
  }

  private async retrying<T>(
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
        this.onRetry?.(what, error);
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
 * The node refused the range as too wide or its answer as too large: the
 * range is halved (or set to the limit the node names).
 */
export function isRangeRefusal(error: unknown): boolean {
  return /block range exceeded|range (is )?too (large|wide)|too many (blocks|results|logs)|response (size|is too)|query returned more than|limit exceeded|timed? ?out|timeout|context deadline/i.test(
    messageOf(error),
  );
}

/** The limit minievm names in `block range exceeded <N>`. */
export function rangeLimit(error: unknown): bigint | undefined {
  const match = /block range exceeded:?\s*(\d+)/i.exec(messageOf(error));
  return match === null ? undefined : BigInt(match[1] ?? "0");
}

/**
 * A request worth another attempt: what every client here retries (a dropped
 * connection, a timeout, a gateway's 5xx, a rate limit), and an answer cut
 * short or a node's internal error, which a log query on a busy node gives.
 * A refusal of the request itself is not.
 */
function isFault(error: unknown): boolean {
  const text = messageOf(error);
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

function messageOf(error: unknown): string {
  const parts: string[] = [];
  for (
    let e: unknown = error, depth = 0;
    e !== undefined && e !== null && depth < 6;
    depth++
  ) {
    if (e instanceof Error) parts.push(e.message);
    else if (typeof e === "string") parts.push(e);
    const data = (e as { data?: unknown }).data;
    if (typeof data === "string") parts.push(data);
    e = (e as { cause?: unknown }).cause;
  }
  return parts.join(" | ");
}
