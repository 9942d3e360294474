import { type Log, type Provider, toBeHex, zeroPadValue } from "ethers";

import { READER_BATCH, readEntries } from "./entry-reader.js";
import type { MinedReceipt, WatchedBlock } from "./receipts.js";
import type { ScoreTable } from "./table.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";

/** What the proof established, or why it could not. */
export type ProofOutcome =
  | {
      proved: true;
      /** Entries proved by an event of this run's receipts. */
      byEvents: number;
      /** Entries no event of this run proved, read back by the reader. */
      readBack: number;
      /** The block whose state was proved to equal the file. */
      block: number;
    }
  | { proved: false; reason: string };

/** Reader calls at once for the entries no event proved (the push is over). */
const PARALLEL_READS = 4;

/**
 * Proves that the stage holds exactly the file after a push, at little cost to
 * the node, from what the push already reads: the receipts it waits for and
 * the blocks its receipt watcher follows (`ReceiptWatcher`, which reads every
 * block from its start on, with the hashes of its transactions).
 *
 * At the last block the watcher read (the snapshot), every entry equals the
 * file and the stage holds no other address, because:
 * - an entry is proved by an `UpdateScore` event of the contract, of the
 *   stage, in a successful receipt of this push's batch holding the entry,
 *   naming its address with the file's score, mined in a watched block. The
 *   contract emits that event for every non-zero address `updateScores` writes,
 *   whether or not the score changes (contracts/VipScore.sol, `_writeAll`);
 * - nothing wrote to the stage after it: every write path of the contract
 *   emits `UpdateScore`, so each watched block holding a transaction that is
 *   not one of this push's receipts has its `UpdateScore` logs of the stage
 *   looked up (`eth_getLogs`, for that block alone); any from another
 *   transaction fails the proof. The push's own later batches hold other
 *   addresses (a file has no duplicates), or the same scores when resent;
 * - entries no event proved (confirmed by an earlier, killed run; mined before
 *   the watcher started; left out by --skip-unchanged) are read back at the
 *   snapshot by the reader (`readEntries`);
 * - the stage's address count and total at the snapshot equal the file's:
 *   with every file entry indexed, no other address is.
 * Anything else (an event that differs or names an address outside its batch,
 * another writer, a count or total that differs, an entry read back that
 * differs, a node that cannot run the reader) ends the proof unproved: the
 * caller then reads every score back to name the differences.
 */
export class EventProof {
  /** 1 for an entry proved by an event of this run. */
  readonly #proved: Uint8Array;
  #byEvents = 0;
  /** The hashes of the transactions of each watched block. */
  readonly #blocks = new Map<number, readonly string[]>();
  #lastBlock: number | undefined;
  /** The latest block holding a receipt of this push. */
  #lastReceiptBlock = 0;
  /** The (lowercase) hashes of this push's receipts. */
  readonly #ours = new Set<string>();
  #mismatch: string | undefined;
  readonly #contract: string;
  readonly #topic: string;
  readonly #stageTopic: string;

  readonly #score: VipScore;
  readonly #stage: bigint;
  readonly #table: ScoreTable;

  constructor(
    score: VipScore,
    contract: string,
    stage: bigint,
    table: ScoreTable,
  ) {
    this.#score = score;
    this.#stage = stage;
    this.#table = table;
    this.#proved = new Uint8Array(table.length);
    this.#contract = contract.toLowerCase();
    this.#topic = score.interface.getEvent("UpdateScore").topicHash;
    this.#stageTopic = zeroPadValue(toBeHex(stage), 32);
  }

  /** A block the receipt watcher read. */
  block(block: WatchedBlock): void {
    this.#blocks.set(block.number, block.transactions);
    this.#lastBlock = Math.max(this.#lastBlock ?? 0, block.number);
  }

  /** The successful receipt of the batch of entries [start, end). */
  receipt(start: number, end: number, receipt: MinedReceipt): void {
    this.#ours.add(receipt.hash.toLowerCase());
    this.#lastReceiptBlock = Math.max(
      this.#lastReceiptBlock,
      receipt.blockNumber,
    );
    // Mined in a block the watcher did not read (before it started, or found
    // by hash ahead of it): a write between that block and the watched ones
    // could go unseen, so its entries are read back at the snapshot instead.
    if (!this.#blocks.has(receipt.blockNumber)) return;
    for (const log of receipt.logs) this.#event(log, start, end);
  }

  /**
   * Settles the proof once the push is over: another writer in the watched
   * blocks, the stage's count and total, then the entries no event proved.
   */
  async settle(): Promise<ProofOutcome> {
    const provider = this.#score.runner?.provider;
    if (this.#mismatch !== undefined)
      return { proved: false, reason: this.#mismatch };
    if (provider === undefined || provider === null)
      return { proved: false, reason: "no provider to read the stage" };
    const block = await this.#snapshot(provider);
    await this.#checkOtherWriters(provider);
    if (this.#mismatch === undefined) await this.#checkStage(block);
    if (this.#mismatch === undefined) await this.#readUnproved(block);
    if (this.#mismatch !== undefined)
      return { proved: false, reason: this.#mismatch };
    return {
      proved: true,
      byEvents: this.#byEvents,
      readBack: this.#table.length - this.#byEvents,
      block,
    };
  }

  /**
   * The block whose state is proved: the last the watcher read, or later if a
   * receipt was found (by hash) in a block it had not read yet, whose
   * transactions are then read here; the latest when it read none.
   */
  async #snapshot(provider: Provider): Promise<number> {
    if (this.#lastBlock === undefined) return provider.getBlockNumber();
    for (let n = this.#lastBlock + 1; n <= this.#lastReceiptBlock; n++) {
      const block = await provider.getBlock(n);
      if (block === null) break;
      this.block({
        number: n,
        gasUsed: block.gasUsed,
        gasLimit: block.gasLimit,
        transactions: block.transactions,
      });
    }
    return this.#lastBlock;
  }

  /** Checks one log of a receipt of the batch [start, end). */
  #event(log: Log, start: number, end: number): void {
    if (log.address.toLowerCase() !== this.#contract) return;
    if (log.topics[0] !== this.#topic) return;
    const addressTopic = log.topics[1] ?? "";
    if (log.topics[2] !== this.#stageTopic) {
      this.#mismatch ??= `transaction ${log.transactionHash} wrote another stage`;
      return;
    }
    const address = "0x" + addressTopic.slice(26);
    const i = this.#table.indexOf(address);
    if (i === undefined || i < start || i >= end) {
      this.#mismatch ??= `transaction ${log.transactionHash} wrote ${address}, outside its batch`;
      return;
    }
    if (BigInt(log.data.slice(0, 66)) !== this.#table.score(i)) {
      this.#mismatch ??= `transaction ${log.transactionHash} wrote another score for line ${this.#table.line(i)}`;
      return;
    }
    if (this.#proved[i] === 0) {
      this.#proved[i] = 1;
      this.#byEvents++;
    }
  }

  /**
   * Looks up the stage's `UpdateScore` logs in each watched block holding a
   * transaction not of this push: one from another transaction is a write the
   * events cannot account for. A push alone on its chain looks up nothing.
   */
  async #checkOtherWriters(provider: Provider): Promise<void> {
    for (const [number, hashes] of this.#blocks) {
      if (hashes.every((hash) => this.#ours.has(hash.toLowerCase()))) continue;
      const logs = await provider.getLogs({
        address: this.#contract,
        topics: [this.#topic, null, this.#stageTopic],
        fromBlock: number,
        toBlock: number,
      });
      const other = logs.find(
        (log) => !this.#ours.has(log.transactionHash.toLowerCase()),
      );
      if (other !== undefined) {
        this.#mismatch = `transaction ${other.transactionHash} (not of this push) wrote scores of stage ${this.#stage}`;
        return;
      }
    }
  }

  /** The stage's address count and total at `block` equal the file's. */
  async #checkStage(block: number): Promise<void> {
    const [count, [, total]] = await Promise.all([
      this.#score.scoreCount(this.#stage, { blockTag: block }),
      this.#score.stages(this.#stage, { blockTag: block }),
    ]);
    if (count !== BigInt(this.#table.length))
      this.#mismatch = `the stage holds ${count} addresses, the file ${this.#table.length}`;
    else if (total !== this.#table.totalScore())
      this.#mismatch = `the stage's total is ${total}, the file's ${this.#table.totalScore()}`;
  }

  /** Reads back, at `block`, the entries no event of this run proved. */
  async #readUnproved(block: number): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (this.#mismatch === undefined && next < this.#table.length) {
        const indexes: number[] = [];
        for (
          ;
          next < this.#table.length && indexes.length < READER_BATCH;
          next++
        )
          if (this.#proved[next] === 0) indexes.push(next);
        if (indexes.length === 0) return;
        await readEntries(
          this.#score,
          this.#stage,
          this.#table,
          indexes,
          (i, indexed, actual) => {
            if (!indexed || actual !== this.#table.score(i))
              this.#mismatch ??= `line ${this.#table.line(i)} differs on chain`;
          },
          block,
        );
      }
    };
    try {
      await Promise.all(Array.from({ length: PARALLEL_READS }, worker));
    } catch {
      // A node that runs no creation code in eth_call: the full read-back
      // compares through the stage's pages.
      this.#mismatch ??= "the node cannot run the reader";
    }
  }
}
