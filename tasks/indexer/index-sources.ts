import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import type { Output } from "../output.js";
import { LogColumns, LogDecoder, type RpcLog } from "./decode.js";
import { createIndexProgress } from "./index-progress.js";
import { receiptOffsets, receiptsNeeded } from "./log-places.js";
import {
  type BlockHeader,
  isRangeRefusal,
  rangeLimit,
  type RollupReader,
} from "./rpc.js";
import type { ActivityStore, StoredBlock } from "./store.js";
import type { PolicySource } from "../policy/parse.js";

/** Addresses per `eth_getLogs` filter: minievm's `filter-max-addresses`. */
const MAX_ADDRESSES = 100;
/** The first range tried, in blocks. */
export const FIRST_RANGE = 100n;
/** minievm walks every header of a range: past this, a query risks its 10 s timeout. */
export const MAX_RANGE = 100_000n;
/**
 * Logs one answer should hold: large enough that requests are few, small
 * enough that an answer parses in a fraction of a second.
 */
const TARGET_LOGS = 10_000n;
/**
 * How often the index commits: each commit writes and syncs DuckDB's log, so
 * one per range would cost more than the range; a kill loses at most this
 * much work, done again on the next run.
 */
const COMMIT_EVERY_MS = 2_000;
/** Answers fetched ahead of the one being stored. */
const AHEAD = 2;
/**
 * `eth_getLogs` requests in flight: the next range is asked for before the
 * last one's answer has arrived, so the node, which serves one at a time,
 * always has the next to serve while this process parses and stores (with
 * one, it waited through every answer's parsing: 2.1 s of 5.5 s at
 * 1,000,000 logs). Each range's size follows the answer this many ranges
 * before it (see `RangeSizes`).
 */
export const LOGS_IN_FLIGHT = 2;

export interface IndexReport {
  head: bigint;
  /** Blocks the index was behind the head when it started. */
  behind: bigint;
  logs: number;
  ranges: number;
  rewound?: bigint;
}

interface Step {
  group: PolicySource[];
  from: bigint;
  to: bigint;
  /** Every source's cursor before this range was planned: a refusal goes back to them. */
  cursorsBefore: Map<string, bigint>;
}

/**
 * A range's answer: refused (its size, or any other error of the node's);
 * asked before a refused range was narrowed (stale: dropped); failed here,
 * past the node (an answer that is not a list of logs, say); or its logs and
 * the headers of their blocks.
 */
type Fetched =
  | { kind: "refused"; step: Step; error: unknown }
  | { kind: "stale" }
  | { kind: "failed"; error: unknown }
  | {
      kind: "answered";
      step: Step;
      logs: RpcLog[];
      places: Settled<AnswerPlaces>;
    };

/**
 * Brings every source up to the chain's head: ranges of blocks, each fetched
 * with one `eth_getLogs` per group of sources at the same cursor (at most 100
 * addresses), decoded and stored with its blocks in one transaction, while the
 * next range is already being fetched. A range's size follows the logs the
 * last answer held (about 10,000 an answer); a range the node refuses as too
 * wide is narrowed, to the limit it names if it names one. The range's first
 * block must exist on the node (a pruned node answers short, without an
 * error, so an empty answer would prove nothing); a stored block whose hash
 * changed is indexed again from the last block that still matches. A log's
 * index is stored within its transaction, whichever way the node numbers it
 * (receipts read with the headers where an answer needs them).
 */
export async function indexSources(
  reader: RollupReader,
  store: ActivityStore,
  sources: PolicySource[],
  out: Output,
  options: { upTo?: bigint } = {},
): Promise<IndexReport> {
  const unique = [...new Map(sources.map((s) => [s.id, s])).values()];
  for (const source of unique) await store.ensureSource(source);
  const report: IndexReport = { head: 0n, behind: 0n, logs: 0, ranges: 0 };
  report.rewound = await checkForReorg(reader, store, unique);
  const head = options.upTo ?? (await reader.head());
  report.head = head;
  const decoders = new Map(unique.map((s) => [s.id, new LogDecoder(s)]));
  const cursors = new Map<string, bigint>();
  for (const source of unique)
    cursors.set(source.id, await store.nextBlock(source));
  const start = [...cursors.values()].reduce(
    (m, c) => (c < m ? c : m),
    head + 1n,
  );
  report.behind = start > head ? 0n : head + 1n - start;
  const sync = new RangeSync(reader, store, report, {
    sources: unique,
    head,
    cursors,
    decoders,
    progress: createIndexProgress(start, head, out),
  });
  await sync.run();
  return report;
}

/** What a sync works through: its sources, their cursors, up to `head`. */
interface SyncPlan {
  sources: PolicySource[];
  head: bigint;
  /** Each source's first block not fetched yet, advanced as answers come. */
  cursors: Map<string, bigint>;
  decoders: Map<string, LogDecoder>;
  progress: ReturnType<typeof createIndexProgress>;
}

/**
 * The sizes of the ranges to ask for, in order. The first LOGS_IN_FLIGHT are
 * FIRST_RANGE; each answer, taken in the order its range was asked for, gives
 * the size of the range LOGS_IN_FLIGHT after it (`nextRange` of its own size
 * and logs). So the ranges asked for depend only on the chain's answers, not
 * on when they arrive, and a size is ready for each range in flight.
 */
export class RangeSizes {
  /** The largest range tried: the node's stated limit, once it names one. */
  ceiling: bigint;
  #queue: bigint[];

  constructor(first = FIRST_RANGE, ceiling = MAX_RANGE) {
    this.ceiling = ceiling;
    this.#queue = new Array<bigint>(LOGS_IN_FLIGHT).fill(first);
  }

  /** The next range's size, or undefined while every range sized is asked for. */
  peek(): bigint | undefined {
    return this.#queue[0];
  }

  /** Takes the next range's size, once that range is asked for. */
  take(): void {
    this.#queue.shift();
  }

  /** A range of `size` blocks held `logs` logs: the size of the range LOGS_IN_FLIGHT after it. */
  answered(size: bigint, logs: number): void {
    this.#queue.push(nextRange(size, logs, this.ceiling));
  }

  /** No range is asked for until `restart` (one was refused). */
  stop(): void {
    this.#queue = [];
  }

  /** Starts over at `size` a range, as at the first. */
  restart(size: bigint): void {
    this.#queue = new Array<bigint>(LOGS_IN_FLIGHT).fill(size);
  }
}

/**
 * One run of `indexSources`, in its stages: plan the next range from the
 * cursors, fetch it (logs, then the headers and receipts they need) ahead of
 * the range being stored, narrow a range the node refuses, decode and store
 * an answer, commit every COMMIT_EVERY_MS, and at the end keep or drop what
 * was stored since the last commit.
 *
 * Ranges are fetched ahead, in order, LOGS_IN_FLIGHT of them asked for at
 * once: as soon as one range's logs arrive, its block headers (and receipts,
 * if it needs any) are asked for, then the next range, so the node always
 * has a request to serve while this process parses, decodes and stores, and
 * serves first what the run waits on. At most AHEAD + 1 answers wait while
 * one is stored (as before two were asked for at once). A refused range is asked again, narrower, from
 * the cursors it was planned from; the range asked for after it is dropped
 * as its answer comes (until then it is a third request at the node).
 */
class RangeSync {
  readonly #sizes = new RangeSizes();
  readonly #pending: Promise<Fetched>[] = [];
  /**
   * Settles once the last range asked for has its answer taken in turn
   * (sized the range after it, or found refused or stale): answers are taken
   * in the order asked. Never rejects.
   */
  #lastTaken: Promise<void> = Promise.resolve();
  /** Counts refusals: an answer to a range asked for before the last refusal is stale. */
  #generation = 0;
  #committedAt = 0;
  /**
   * The commit under way, with its checkpoint: it runs on DuckDB's thread
   * while the next answer arrives and is decoded, and is waited for before
   * that answer is stored.
   */
  #committing: Promise<Settled<void>> | undefined;

  readonly #reader: RollupReader;
  readonly #store: ActivityStore;
  readonly #report: IndexReport;
  readonly #plan: SyncPlan;

  constructor(
    reader: RollupReader,
    store: ActivityStore,
    report: IndexReport,
    plan: SyncPlan,
  ) {
    this.#reader = reader;
    this.#store = store;
    this.#report = report;
    this.#plan = plan;
  }

  async run(): Promise<void> {
    this.#launch();
    await this.#store.begin();
    this.#committedAt = Date.now();
    let done = false;
    try {
      for (;;) {
        const next = this.#pending.shift();
        if (next === undefined) break;
        const fetched = await next;
        if (fetched.kind === "failed") throw fetched.error;
        this.#launch();
        if (fetched.kind === "refused")
          this.#narrow(fetched.step, fetched.error);
        else if (fetched.kind === "answered") await this.#storeAnswer(fetched);
      }
      await this.#finishCommit();
      done = true;
    } finally {
      await this.#end(done);
    }
  }

  /** The next range of `size` blocks to fetch, given each source's cursor, or none. */
  #nextStep(size: bigint): Step | undefined {
    const { head, cursors } = this.#plan;
    const cursor = (s: PolicySource) => cursors.get(s.id) ?? head + 1n;
    const behind = this.#plan.sources.filter((s) => cursor(s) <= head);
    if (behind.length === 0) return undefined;
    const from = behind.reduce((m, s) => (cursor(s) < m ? cursor(s) : m), head);
    // Sources at the same cursor go together; a later cursor bounds the
    // range, so the groups merge once they meet.
    const group: PolicySource[] = [];
    const addresses = new Set<string>();
    for (const source of behind.filter((s) => cursor(s) === from)) {
      if (!addresses.has(source.address) && addresses.size === MAX_ADDRESSES)
        continue;
      addresses.add(source.address);
      group.push(source);
    }
    const bound = behind
      .filter((s) => cursor(s) > from)
      .reduce((m, s) => (cursor(s) < m ? cursor(s) : m), head + 1n);
    let to = from + size - 1n;
    if (to >= bound) to = bound - 1n;
    return { group, from, to, cursorsBefore: new Map(cursors) };
  }

  /**
   * Asks for the next ranges while a size is ready for them and at most
   * AHEAD + 1 entries are pending: each moves its sources' cursors past it.
   * A range's fetch never rejects: what fails past the node comes back as
   * `failed`, thrown when the run reaches it.
   */
  #launch(): void {
    for (;;) {
      const size = this.#sizes.peek();
      if (size === undefined || this.#pending.length > AHEAD) return;
      const step = this.#nextStep(size);
      if (step === undefined) return;
      this.#sizes.take();
      for (const source of step.group)
        this.#plan.cursors.set(source.id, step.to + 1n);
      const before = this.#lastTaken;
      let taken!: () => void;
      this.#lastTaken = new Promise<void>((resolve) => (taken = resolve));
      this.#pending.push(
        this.#fetchRange(step, before, taken)
          .catch((error: unknown): Fetched => ({ kind: "failed", error }))
          .finally(taken),
      );
    }
  }

  /**
   * Fetches a range's logs; once they arrive and the range before it was
   * taken, asks for the headers and receipts this one needs, sizes the range
   * LOGS_IN_FLIGHT after it, asks for the next, and says it is `taken`.
   */
  async #fetchRange(
    step: Step,
    before: Promise<void>,
    taken: () => void,
  ): Promise<Fetched> {
    const generation = this.#generation;
    const answer = await settle(
      this.#reader.logs(
        step.from,
        step.to,
        [...new Set(step.group.map((s) => s.address))],
        [...new Set(step.group.map((s) => s.topic))],
      ),
    );
    await before;
    if (generation !== this.#generation) return { kind: "stale" };
    if (!answer.ok) {
      // Nothing more is asked for until the run reaches this range and
      // narrows it; what was asked for after it is stale.
      this.#generation++;
      this.#sizes.stop();
      return { kind: "refused", step, error: answer.error };
    }
    const logs = answer.value.filter((log) => log.removed !== true);
    // This range's headers are asked for before the next range: the node
    // serves one request at a time, and the run waits on these headers to
    // store this range, not on the next range (asked first, they waited
    // behind its logs: some 0.5 s of 5.5 at 1,000,000 logs).
    const placesRead = settle(readPlaces(this.#reader, step, logs));
    this.#sizes.answered(step.to - step.from + 1n, logs.length);
    this.#launch();
    taken();
    const places = await placesRead;
    return { kind: "answered", step, logs, places };
  }

  /**
   * A range the node refused: asked again narrower, from the cursors it was
   * planned from, if the node refused its size, else the refusal is the
   * error. The answers to the ranges asked for after it come stale.
   */
  #narrow(step: Step, error: unknown): void {
    if (!isRangeRefusal(error) || step.to === step.from) throw error;
    for (const [id, cursor] of step.cursorsBefore)
      this.#plan.cursors.set(id, cursor);
    const size = step.to - step.from + 1n;
    const limit = rangeLimit(error);
    // The node's stated limit becomes the ceiling; otherwise halve.
    if (limit !== undefined && limit > 0n && limit < size) {
      this.#sizes.ceiling = limit;
      this.#sizes.restart(limit);
    } else this.#sizes.restart(size / 2n || 1n);
    this.#launch();
  }

  /** Decodes an answer and stores it with its blocks, committing when due. */
  async #storeAnswer(
    fetched: Extract<Fetched, { kind: "answered" }>,
  ): Promise<void> {
    const { step } = fetched;
    if (!fetched.places.ok) throw fetched.places.error;
    const answer = decodeAnswer(
      step,
      fetched.logs,
      fetched.places.value,
      this.#plan.decoders,
    );
    await this.#finishCommit();
    // Should storing fail, the command stops, and the store still holds
    // the cursors before this range.
    await this.#store.storeRange(
      step.group,
      step.to,
      answer.rows,
      answer.blocks,
    );
    this.#report.logs += answer.count;
    this.#report.ranges++;
    if (Date.now() - this.#committedAt >= COMMIT_EVERY_MS) this.#startCommit();
    this.#plan.progress.update(step.to, this.#report.logs);
  }

  #startCommit(): void {
    const store = this.#store;
    this.#committing = settle(
      (async () => {
        await store.commit();
        // Written now, on DuckDB's thread, while this one decodes: left to
        // the end, the whole index is written after the last answer.
        await store.checkpoint();
        await store.begin();
      })(),
    );
    this.#committedAt = Date.now();
  }

  async #finishCommit(): Promise<void> {
    const result = await this.#committing;
    this.#committing = undefined;
    if (result !== undefined && !result.ok) throw result.error;
  }

  /**
   * What was stored since the last commit is kept only if every range up to
   * here was; an error leaves the index as it was at that commit.
   */
  async #end(done: boolean): Promise<void> {
    if (done) {
      await this.#store.commit();
      await this.#store.checkpoint();
    } else {
      // A commit under way ends first (its failure, if it failed, is
      // already what is thrown, or the lesser error).
      await this.#committing;
      await this.#store.rollback();
    }
    this.#plan.progress.stop();
  }
}

/** The next range's size: about TARGET_LOGS logs, growing at most fourfold. */
export function nextRange(size: bigint, logs: number, ceiling: bigint): bigint {
  let next =
    logs === 0 ? size * 4n : (size * TARGET_LOGS) / BigInt(Math.max(logs, 1));
  if (next > size * 4n) next = size * 4n;
  if (next < 1n) next = 1n;
  return next > ceiling ? ceiling : next;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A promise that never rejects, so a fetch ahead of its turn cannot go unhandled. */
function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

/**
 * What one answer needs besides its logs: the headers of its blocks, and the
 * offset of each transaction whose logs' indices the node numbers from
 * elsewhere than 0 (see `log-places.ts`; none for most answers).
 */
interface AnswerPlaces {
  blocks: Map<bigint, BlockHeader>;
  offsets: Map<string, number>;
}

/**
 * Reads what one answer needs: the headers of the range's first and last
 * blocks (they must exist: a pruned node answers short without an error)
 * and of every block with a log, for its time (from the log itself where the
 * node adds it), and the receipts the answer's transactions need, in the
 * same batch requests.
 */
async function readPlaces(
  reader: RollupReader,
  { from, to }: Step,
  logs: RpcLog[],
): Promise<AnswerPlaces> {
  const { blocks, unread } = blocksToRead(from, to, logs);
  const needs = receiptsNeeded(logs);
  const { headers, receipts } = await reader.existingBlocksAndReceipts(
    unread,
    (n) =>
      n === from
        ? `the first block of the range ${from}–${to}`
        : n === to
          ? `the last block of the range ${from}–${to}`
          : "a block with a log",
    needs.map((need) => need.hash),
  );
  for (const header of headers) blocks.set(header.number, header);
  return { blocks, offsets: receiptOffsets(logs, needs, receipts) };
}

/**
 * The blocks of an answer: those whose header the logs give (with
 * `blockTimestamp`), and the numbers of those to read.
 */
function blocksToRead(
  from: bigint,
  to: bigint,
  logs: RpcLog[],
): { blocks: Map<bigint, BlockHeader>; unread: bigint[] } {
  const blocks = new Map<bigint, BlockHeader>();
  const unread = new Set<bigint>([from, to]);
  let blockHex = "";
  for (const log of logs) {
    if (log.blockNumber === blockHex) continue; // the block before's
    blockHex = log.blockNumber;
    const number = BigInt(blockHex);
    if (number < from || number > to)
      throw new VipError(ERRORS.INDEXER.LOGS.LOG_OUTSIDE_RANGE, {
        number,
        from,
        to,
      });
    if (unread.has(number) || blocks.has(number)) continue;
    if (log.blockTimestamp !== undefined)
      blocks.set(number, {
        number,
        hash: log.blockHash.toLowerCase(),
        time: BigInt(log.blockTimestamp),
      });
    else unread.add(number);
  }
  return { blocks, unread: [...unread] };
}

/**
 * Decodes one answer's logs into each source's rows, each log's index
 * counted from its transaction's first log; every log's block must be the
 * one its header says. Returns them with the blocks to store.
 */
function decodeAnswer(
  { group }: Step,
  logs: RpcLog[],
  { blocks, offsets }: AnswerPlaces,
  decoders: Map<string, LogDecoder>,
): { rows: Map<string, LogColumns>; blocks: StoredBlock[]; count: number } {
  const byId = new Map<string, LogColumns>();
  const targets = group.flatMap((source) => {
    const decoder = decoders.get(source.id);
    if (decoder === undefined) return [];
    const columns = new LogColumns(source.columns.length);
    byId.set(source.id, columns);
    return [{ source, decoder, columns }];
  });
  let stored = 0;
  // An answer holds many logs per block, in order: each block is looked up
  // once.
  let blockHex = "";
  let number = 0n;
  let block: BlockHeader | undefined;
  for (const log of logs) {
    if (log.blockNumber !== blockHex) {
      blockHex = log.blockNumber;
      number = BigInt(blockHex);
      block = blocks.get(number);
    }
    if (
      block === undefined ||
      (block.hash !== log.blockHash &&
        block.hash !== log.blockHash.toLowerCase())
    )
      throw new VipError(ERRORS.INDEXER.NODE.BLOCK_CHANGED, { number });
    const topic = log.topics[0];
    const offset =
      offsets.size === 0 ? 0 : (offsets.get(log.transactionHash) ?? 0);
    for (const { source, decoder, columns } of targets) {
      if (
        (source.address !== log.address &&
          source.address !== log.address.toLowerCase()) ||
        topic === undefined ||
        (source.topic !== topic && source.topic !== topic.toLowerCase()) ||
        number < source.fromBlock
      )
        continue;
      decoder.decodeInto(columns, log, number, block.time, offset);
      stored++;
    }
  }
  return { rows: byId, blocks: [...blocks.values()], count: stored };
}

/**
 * Compares each cursor's last block with the node; where the node now has
 * another block there, walks back through the stored blocks to the last one
 * that still matches and forgets everything after it. Returns that block.
 */
async function checkForReorg(
  reader: RollupReader,
  store: ActivityStore,
  sources: PolicySource[],
): Promise<bigint | undefined> {
  let highest = -1n;
  for (const source of sources) {
    const next = await store.nextBlock(source);
    if (next - 1n > highest) highest = next - 1n;
  }
  if (highest < 0n) return undefined;
  const stored = await store.blocksDownFrom(highest);
  if (stored.length === 0) return undefined;
  for (const block of stored) {
    const now = await reader.block(block.number);
    if (now !== undefined && now.hash === block.hash) {
      if (block.number === highest) return undefined;
      await store.rewind(sources, block.number);
      return block.number;
    }
  }
  // Nothing stored matches any more: start every source over.
  await store.rewind(sources, -1n);
  return -1n;
}
