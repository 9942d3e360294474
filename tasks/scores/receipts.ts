import type { Log, Provider } from "ethers";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";

/** What a push needs of a receipt. */
export interface MinedReceipt {
  hash: string;
  blockNumber: number;
  gasUsed: bigint;
  status: number;
  /** The receipt's logs: the push proves its entries by their events. */
  logs: readonly Log[];
}

/** A block the watcher read: its gas, and the hashes of its transactions. */
export interface WatchedBlock {
  number: number;
  gasUsed: bigint;
  gasLimit: bigint;
  transactions: readonly string[];
}

export type Outcome = { mined: MinedReceipt } | { dropped: string };

interface Waiter {
  hash: string;
  label: string;
  since: number;
  deadline: number;
  lastCheck: number;
  missing: number;
  resolve(outcome: Outcome): void;
  reject(error: unknown): void;
}

export interface WatcherOptions {
  /** How often the node is asked for its latest block, in ms. */
  pollMs?: number;
  /**
   * How long a transaction may stay unmined before the run stops (it resumes
   * later), in ms.
   */
  timeoutMs?: number;
  /**
   * Told of every new block the watcher reads, in order, from the block after
   * the one current at its start: a contiguous range with no gap.
   */
  onBlock?: (block: WatchedBlock) => void;
}

/**
 * A transaction not seen in a block for this long is looked up by hash; three
 * misses in a row and it is dropped.
 */
const LOOKUP_AFTER_MS = 2_000;
const MISSES_TO_DROP = 3;
/**
 * Hashes seen in blocks before anyone waited for them are kept this many
 * blocks.
 */
const RECENT_BLOCKS = 64;

/**
 * Waits for many transactions with one loop that follows the chain block by
 * block: one `eth_blockNumber` per poll and one block (its transaction hashes)
 * per new block, then one receipt per transaction of ours, instead of polling
 * every transaction's receipt. A transaction that is in no block for a while is
 * looked up by hash: mined in a block the loop did not read (sent before it
 * started), it is found; unknown to the node three times in a row, it is
 * dropped.
 */
export class ReceiptWatcher {
  readonly #waiters = new Map<string, Waiter>();
  /**
   * Hash → block, for transactions mined before anyone waited for them (a send
   * answered after its block).
   */
  readonly #recent = new Map<string, number>();
  #lastBlock: number;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  readonly #pollMs: number;
  readonly #timeoutMs: number;
  readonly #onBlock: WatcherOptions["onBlock"];

  readonly #provider: Provider;

  private constructor(
    provider: Provider,
    fromBlock: number,
    options: WatcherOptions,
  ) {
    this.#provider = provider;
    this.#lastBlock = fromBlock;
    this.#pollMs = options.pollMs ?? 250;
    this.#timeoutMs = options.timeoutMs ?? 600_000;
    this.#onBlock = options.onBlock;
  }

  /**
   * A watcher that reads blocks after the current one: start it before sending.
   */
  static async start(
    provider: Provider,
    options: WatcherOptions = {},
  ): Promise<ReceiptWatcher> {
    const watcher = new ReceiptWatcher(
      provider,
      await provider.getBlockNumber(),
      options,
    );
    watcher.#schedule();
    return watcher;
  }

  /**
   * Resolves when `hash` is mined (with its receipt) or dropped; `label` names
   * it in a timeout.
   */
  wait(hash: string, label: string): Promise<Outcome> {
    return new Promise<Outcome>((resolve, reject) => {
      const now = Date.now();
      const waiter: Waiter = {
        hash,
        label,
        since: now,
        deadline: now + this.#timeoutMs,
        lastCheck: now,
        missing: 0,
        resolve,
        reject,
      };
      this.#waiters.set(hash.toLowerCase(), waiter);
      if (this.#recent.delete(hash.toLowerCase()))
        this.#receipt(waiter).catch(reject);
    });
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#tick().then(
        () => this.#schedule(),
        (error: unknown) => {
          for (const waiter of this.#waiters.values()) waiter.reject(error);
          this.#waiters.clear();
          this.#schedule();
        },
      );
    }, this.#pollMs);
  }

  async #tick(): Promise<void> {
    const latest = await this.#provider.getBlockNumber();
    for (let number = this.#lastBlock + 1; number <= latest; number++) {
      const block = await this.#provider.getBlock(number);
      if (block === null) break; // not served yet: read on the next poll
      this.#onBlock?.({
        number,
        gasUsed: block.gasUsed,
        gasLimit: block.gasLimit,
        transactions: block.transactions,
      });
      const ours: Waiter[] = [];
      for (const hash of block.transactions) {
        const waiter = this.#waiters.get(hash.toLowerCase());
        if (waiter === undefined) this.#recent.set(hash.toLowerCase(), number);
        else ours.push(waiter);
      }
      await Promise.all(ours.map((waiter) => this.#receipt(waiter)));
      this.#lastBlock = number;
    }
    for (const [hash, number] of this.#recent)
      if (number <= this.#lastBlock - RECENT_BLOCKS) this.#recent.delete(hash);

    const now = Date.now();
    for (const waiter of [...this.#waiters.values()]) {
      if (now > waiter.deadline) {
        this.#waiters.delete(waiter.hash.toLowerCase());
        waiter.reject(
          new VipError(ERRORS.SCORES.PUSH.NOT_MINED, {
            hash: waiter.hash,
            batch: waiter.label,
            seconds: this.#timeoutMs / 1000,
          }),
        );
      } else if (now - waiter.lastCheck >= LOOKUP_AFTER_MS) {
        waiter.lastCheck = now;
        await this.#lookUp(waiter);
      }
    }
  }

  /**
   * A transaction no block showed yet: mined unseen, still pending, or gone.
   */
  async #lookUp(waiter: Waiter): Promise<void> {
    const tx = await this.#provider.getTransaction(waiter.hash);
    if (tx !== null && tx.blockNumber !== null) return this.#receipt(waiter);
    if (tx !== null) {
      waiter.missing = 0;
      return;
    }
    if (++waiter.missing >= MISSES_TO_DROP) {
      this.#waiters.delete(waiter.hash.toLowerCase());
      waiter.resolve({
        dropped: `${waiter.hash} is no longer known to the node`,
      });
    }
  }

  async #receipt(waiter: Waiter): Promise<void> {
    const receipt = await this.#provider.getTransactionReceipt(waiter.hash);
    // In a block the node has not finished serving: looked up again later.
    if (receipt === null) return;
    this.#waiters.delete(waiter.hash.toLowerCase());
    waiter.resolve({
      mined: {
        hash: receipt.hash,
        blockNumber: receipt.blockNumber,
        gasUsed: receipt.gasUsed,
        status: receipt.status ?? 0,
        logs: receipt.logs,
      },
    });
  }
}
