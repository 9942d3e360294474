import { READER_BATCH, readEntries } from "./entry-reader.js";
import type { ScoreTable } from "./table.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
import { forEachStageScore } from "../contract/stage-pages.js";

export interface Difference {
  address: string;
  /** The file's line, for entries of the file. */
  line?: number;
  expected: bigint;
  /** Undefined when the address was never scored on chain. */
  actual?: bigint;
}

/**
 * Reader calls at once when the comparison ends, after the push: the node has
 * nothing else to do then. (One at a time while a push runs, to leave the node
 * to it.)
 */
const PARALLEL_AT_FINISH = 4;

/**
 * Compares the file with the chain, entry by entry by address (`readEntries`),
 * and can start before the push ends: `check(start, end)` queues entries whose
 * batch is confirmed (a later batch of the file cannot change them: it holds no
 * duplicates), and they are read while the chain mines the next batches.
 * `finish` reads what is left, then counts: when the stage holds more addresses
 * than the file has on chain, the stage's pages are read to find the others. A
 * node that runs no creation code in `eth_call` is compared through the pages
 * alone. Memory: a byte per entry, plus the differences.
 */
export class ChainComparison {
  readonly #checked: Uint8Array;
  #queue: number[] = [];
  /**
   * Where the unread part of `#queue` starts (taking from the front of a
   * million-entry array would copy it each time).
   */
  #head = 0;
  readonly #differing: { index: number; actual?: bigint }[] = [];
  #indexed = 0n;
  #worker: Promise<void> = Promise.resolve();
  #failed = false;

  readonly #score: VipScore;
  readonly #stage: bigint;
  readonly #table: ScoreTable;

  constructor(score: VipScore, stage: bigint, table: ScoreTable) {
    this.#score = score;
    this.#stage = stage;
    this.#table = table;
    this.#checked = new Uint8Array(table.length);
  }

  /**
   * Queues entries [start, end), final on chain, to be read in the background
   * in full reader calls.
   */
  check(start: number, end: number): void {
    for (let i = start; i < end; i++) this.#enqueue(i);
    if (this.#waiting >= READER_BATCH)
      this.#worker = this.#worker.then(() => this.#drain(READER_BATCH, 1));
  }

  /**
   * Reads every entry not read yet, then the addresses the file lacks; the
   * differences in file order, then the others.
   */
  async finish(): Promise<Difference[]> {
    for (let i = 0; i < this.#table.length; i++) this.#enqueue(i);
    await this.#worker;
    await this.#drain(1, PARALLEL_AT_FINISH);
    if (this.#failed) return this.#byPages();
    const differences: Difference[] = this.#differing
      .sort((a, b) => a.index - b.index)
      .map(({ index, actual }) => ({
        address: this.#table.address(index),
        line: this.#table.line(index),
        expected: this.#table.score(index),
        actual,
      }));
    if ((await this.#score.scoreCount(this.#stage)) > this.#indexed) {
      const strangers: Difference[] = [];
      await forEachStageScore(this.#score, this.#stage, (address, actual) => {
        if (actual !== 0n && this.#table.indexOf(address) === undefined)
          strangers.push({ address, expected: 0n, actual });
      });
      differences.push(
        ...strangers.sort((a, b) => a.address.localeCompare(b.address)),
      );
    }
    return differences;
  }

  get #waiting(): number {
    return this.#queue.length - this.#head;
  }

  /**
   * `#checked`: 0 for an entry not queued yet, 1 once queued (it is read once).
   */
  #enqueue(i: number): void {
    if (this.#checked[i] !== 0) return;
    this.#checked[i] = 1;
    this.#queue.push(i);
  }

  /**
   * Reads queued entries in calls of READER_BATCH while at least `least` wait,
   * `parallel` calls at a time.
   */
  async #drain(least: number, parallel: number): Promise<void> {
    const worker = async () => {
      while (!this.#failed && this.#waiting >= least) {
        const indexes = this.#queue.slice(
          this.#head,
          this.#head + READER_BATCH,
        );
        this.#head += indexes.length;
        if (this.#head === this.#queue.length)
          [this.#queue, this.#head] = [[], 0];
        try {
          await readEntries(
            this.#score,
            this.#stage,
            this.#table,
            indexes,
            (i, indexed, actual) => {
              if (indexed) this.#indexed++;
              if (!indexed) this.#differing.push({ index: i });
              else if (actual !== this.#table.score(i))
                this.#differing.push({ index: i, actual });
            },
          );
        } catch {
          this.#failed = true; // finish() compares through the stage's pages instead
        }
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
  }

  /**
   * The whole comparison from the stage's pages, as the VIP agent reads them.
   */
  async #byPages(): Promise<Difference[]> {
    const seen = new Uint8Array(this.#table.length);
    const differing: { index: number; actual: bigint }[] = [];
    const strangers: Difference[] = [];
    await forEachStageScore(this.#score, this.#stage, (address, actual) => {
      const i = this.#table.indexOf(address);
      if (i === undefined) {
        if (actual !== 0n) strangers.push({ address, expected: 0n, actual });
        return;
      }
      seen[i] = 1;
      if (actual !== this.#table.score(i)) differing.push({ index: i, actual });
    });
    const byIndex = new Map(differing.map((d) => [d.index, d.actual]));
    const differences: Difference[] = [];
    for (let i = 0; i < this.#table.length; i++) {
      if (seen[i] === 0 || byIndex.has(i))
        differences.push({
          address: this.#table.address(i),
          line: this.#table.line(i),
          expected: this.#table.score(i),
          actual: byIndex.get(i),
        });
    }
    return [
      ...differences,
      ...strangers.sort((a, b) => a.address.localeCompare(b.address)),
    ];
  }
}

/**
 * Where the chain does not hold exactly the file (see `ChainComparison`), read
 * in one go.
 */
export function compareWithChain(
  score: VipScore,
  stage: bigint,
  table: ScoreTable,
): Promise<Difference[]> {
  return new ChainComparison(score, stage, table).finish();
}

export function describeDifference(d: Difference, file: string): string {
  const where =
    d.line === undefined
      ? `${d.address} (not in ${file})`
      : `${file}:${d.line}: ${d.address}`;
  return `${where}: file ${d.expected}, chain ${d.actual === undefined ? "never scored" : d.actual}`;
}
