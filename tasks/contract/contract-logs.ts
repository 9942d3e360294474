import { id, type Log, type Provider, toBeHex, zeroPadValue } from "ethers";

import { type PushMarker, readMarker } from "./push-marker.js";
import { isRangeRefusal, rangeLimit } from "../indexer/rpc.js";

/** `UpdateScore(address indexed addr, uint64 indexed stage, uint64 score, uint64 totalScore)`. */
export const UPDATE_SCORE_TOPIC = id(
  "UpdateScore(address,uint64,uint64,uint64)",
);
/** `FinalizeStage(uint64 stage)`: the stage is in the data, not a topic. */
export const FINALIZE_STAGE_TOPIC = id("FinalizeStage(uint64)");

/** A uint64 as an indexed topic. */
export function stageTopic(stage: bigint): string {
  return zeroPadValue(toBeHex(stage), 32);
}

/** A log filter of one contract: its address and topics. */
export interface ContractFilter {
  address: string;
  topics: (string | string[] | null)[];
}

/** Blocks a range starts with, and the most it grows to. */
const FIRST_SPAN = 100;
const MAX_SPAN = 100_000;
/**
 * Logs one answer is sized for: a range of busier blocks (a push of a
 * million scores writes thousands of logs a block) is narrowed to about this
 * many, so no answer holds a whole stage's logs at once.
 */
const ANSWER_LOGS = 5_000;

/**
 * Reads a filter's logs from a block on, range by range, and remembers where
 * it stopped: each read goes from there to the head. A range the node refuses
 * as too wide (or too slow) is halved, or cut to the limit it names; quiet
 * ranges widen.
 */
export class LogCursor {
  #next: number;
  #span = FIRST_SPAN;

  readonly #provider: Provider;
  readonly #filter: ContractFilter;

  constructor(provider: Provider, filter: ContractFilter, from: number) {
    this.#provider = provider;
    this.#filter = filter;
    this.#next = from;
  }

  /**
   * Every log from the cursor through `head`, a range at a time, in order;
   * `onLogs` returning true stops the read after that range.
   */
  async readTo(
    head: number,
    onLogs: (logs: readonly Log[]) => Promise<boolean | void> | boolean | void,
  ): Promise<void> {
    while (this.#next <= head) {
      const to = Math.min(head, this.#next + this.#span - 1);
      let logs: Log[];
      try {
        logs = await this.#provider.getLogs({
          ...this.#filter,
          fromBlock: this.#next,
          toBlock: to,
        });
      } catch (error) {
        if (!isRangeRefusal(error) || this.#span === 1) throw error;
        const limit = rangeLimit(error);
        this.#span =
          limit !== undefined && Number(limit) < this.#span
            ? Math.max(1, Number(limit))
            : Math.max(1, Math.floor(this.#span / 2));
        continue;
      }
      const stop = await onLogs(logs);
      this.#next = to + 1;
      this.#span = nextSpan(this.#span, logs.length);
      if (stop === true) return;
    }
  }
}

/**
 * The next range's width after a range of `span` blocks answered `logs` logs:
 * twice as wide after a quiet one, narrowed to about `ANSWER_LOGS` after a
 * busy one.
 */
function nextSpan(span: number, logs: number): number {
  if (logs <= ANSWER_LOGS / 2) return Math.min(MAX_SPAN, span * 2);
  if (logs <= ANSWER_LOGS * 2) return span;
  return Math.max(1, Math.floor((span * ANSWER_LOGS) / logs));
}

/** Who sent a transaction, and the push marker its calldata ends with. */
export interface TxSender {
  from: string;
  marker?: PushMarker;
}

/** Transactions looked up at once. */
const LOOKUPS_AT_ONCE = 8;

/**
 * The senders of transactions, each looked up once (`eth_getTransactionByHash`)
 * and remembered: a log says which transaction wrote it, not who sent it.
 */
export class TxSenders {
  readonly #known = new Map<string, TxSender>();

  readonly #provider: Provider;

  constructor(provider: Provider) {
    this.#provider = provider;
  }

  /** The senders of `hashes` (lowercase hashes), looked up where unknown. */
  async resolve(hashes: Iterable<string>): Promise<Map<string, TxSender>> {
    const unknown = [...new Set(hashes)].filter((h) => !this.#known.has(h));
    for (let i = 0; i < unknown.length; i += LOOKUPS_AT_ONCE) {
      await Promise.all(
        unknown.slice(i, i + LOOKUPS_AT_ONCE).map(async (hash) => {
          const tx = await this.#provider.getTransaction(hash);
          if (tx === null) return; // not indexed yet: asked again next time
          const marker = readMarker(tx.data);
          this.#known.set(hash, {
            from: tx.from.toLowerCase(),
            ...(marker === undefined ? {} : { marker }),
          });
        }),
      );
    }
    return this.#known;
  }

  /** Forgets every sender (a long-running host keeps its memory bounded). */
  clear(): void {
    this.#known.clear();
  }
}

/** A log, its transaction's hash (lowercase), and who sent it. */
export interface SentLog {
  log: Log;
  tx: string;
  /** Undefined where the node does not know the transaction (yet). */
  sender: TxSender | undefined;
}

/**
 * Reads `cursor` through the head, handing each log with its transaction's
 * sender to `onLog`, in order; each range's transactions are looked up once.
 */
export async function readSentLogs(
  provider: Provider,
  cursor: LogCursor,
  onLog: (sent: SentLog) => void,
): Promise<void> {
  const senders = new TxSenders(provider);
  await cursor.readTo(await provider.getBlockNumber(), async (logs) => {
    const found = await senders.resolve(
      logs.map((log) => log.transactionHash.toLowerCase()),
    );
    for (const log of logs) {
      const tx = log.transactionHash.toLowerCase();
      onLog({ log, tx, sender: found.get(tx) });
    }
    senders.clear();
  });
}
