import { Interface } from "ethers";

import { VipError } from "../errors.js";
import { formatNumber, type Output } from "../output.js";
import type { PolicySource } from "../policy/parse.js";
import { decodeLog, type DecodedLog, type RpcLog } from "./decode.js";
import { isRangeRefusal, rangeLimit, type RollupReader } from "./rpc.js";
import type { ActivityStore, StoredBlock } from "./store.js";

/** Addresses per `eth_getLogs` filter: minievm's `filter-max-addresses`. */
const MAX_ADDRESSES = 100;
/** The first range tried, in blocks; it doubles while answers come back small. */
const FIRST_RANGE = 2_000n;
const MAX_RANGE = 100_000n;
/** Logs in one answer below which the range may grow. */
const SMALL_ANSWER = 5_000;

export interface IndexReport {
  head: bigint;
  logs: number;
  ranges: number;
  rewound?: bigint;
}

/**
 * Brings every source up to the chain's head: ranges of blocks, each fetched
 * with one `eth_getLogs` per group of sources at the same cursor (at most 100
 * addresses), decoded and stored with its blocks in one transaction. A range
 * the node refuses as too wide is narrowed; the range's first block must exist
 * on the node (a pruned node answers short, without an error, so an empty
 * answer would prove nothing); a stored block whose hash changed is indexed
 * again from the last block that still matches.
 */
export async function indexSources(
  reader: RollupReader,
  store: ActivityStore,
  sources: PolicySource[],
  out: Output,
  options: { upTo?: bigint; interactive?: boolean } = {},
): Promise<IndexReport> {
  const unique = [...new Map(sources.map((s) => [s.id, s])).values()];
  for (const source of unique) await store.ensureSource(source);
  const report: IndexReport = { head: 0n, logs: 0, ranges: 0 };
  report.rewound = await checkForReorg(reader, store, unique);
  const head = options.upTo ?? (await reader.head());
  report.head = head;
  const interfaces = new Map(
    unique.map((s) => [s.id, new Interface([s.event])]),
  );
  let range = FIRST_RANGE;
  let ceiling = MAX_RANGE;
  const started = Date.now();
  let startBlock: bigint | undefined;
  let lastLine = 0;

  for (;;) {
    const cursors = await Promise.all(
      unique.map(async (s) => ({ source: s, next: await store.nextBlock(s) })),
    );
    const behind = cursors.filter((c) => c.next <= head);
    if (behind.length === 0) break;
    const from = behind.reduce((m, c) => (c.next < m ? c.next : m), head + 1n);
    startBlock ??= from;
    // Sources at the same cursor go together; a later cursor bounds the
    // range, so the groups merge once they meet.
    const group = behind
      .filter((c) => c.next === from)
      .slice(0, MAX_ADDRESSES)
      .map((c) => c.source);
    const nextCursor = behind
      .filter((c) => c.next > from)
      .reduce((m, c) => (c.next < m ? c.next : m), head + 1n);
    let to = from + range - 1n;
    if (to >= nextCursor) to = nextCursor - 1n;
    if (to > head) to = head;

    const first = await reader.existingBlock(
      from,
      `the first block of the range ${from}–${to}`,
    );
    let logs: RpcLog[];
    try {
      logs = await reader.logs(
        from,
        to,
        [...new Set(group.map((s) => s.address))],
        [...new Set(group.map((s) => s.topic))],
      );
    } catch (error) {
      if (!isRangeRefusal(error) || to === from) throw error;
      const limit = rangeLimit(error);
      // The node's stated limit becomes the ceiling; otherwise halve.
      if (limit !== undefined && limit > 0n && limit < to - from + 1n)
        ceiling = limit;
      range =
        limit !== undefined && limit > 0n && limit < to - from + 1n
          ? limit
          : (to - from + 1n) / 2n || 1n;
      continue;
    }
    const last =
      to === from
        ? first
        : await reader.existingBlock(
            to,
            `the last block of the range ${from}–${to}`,
          );
    // Every log's block must be the one the range's ends were read with: a
    // log from a replaced block would be stored under a block that no longer
    // exists.
    const times = new Map<bigint, StoredBlock>([
      [first.number, first],
      [last.number, last],
    ]);
    const byId = new Map<string, DecodedLog[]>();
    for (const log of logs) {
      if (log.removed === true) continue;
      const number = BigInt(log.blockNumber);
      if (number < from || number > to)
        throw new VipError(
          `the node answered a log of block ${number} to a request for blocks ${from}–${to}`,
        );
      let block = times.get(number);
      if (block === undefined) {
        block = await reader.existingBlock(number, `a block with a log`);
        times.set(number, block);
      }
      if (block.hash !== log.blockHash.toLowerCase())
        throw new VipError(
          `block ${number} changed while it was read (a reorganization): run scores:index again`,
        );
      const address = log.address.toLowerCase();
      const topic = log.topics[0]?.toLowerCase();
      for (const source of group) {
        if (source.address !== address || source.topic !== topic) continue;
        if (number < source.fromBlock) continue;
        const iface = interfaces.get(source.id) as Interface;
        const rows = byId.get(source.id) ?? [];
        rows.push(decodeLog(source, iface, log, block.time));
        byId.set(source.id, rows);
        report.logs++;
      }
    }
    await store.storeRange(group, to, byId, [...times.values()]);
    report.ranges++;
    if (logs.length < SMALL_ANSWER && range * 2n <= ceiling) range *= 2n;

    if (Date.now() - lastLine >= 5_000 || to === head) {
      lastLine = Date.now();
      const elapsed = (Date.now() - started) / 1000;
      const done = Number(to - startBlock + 1n);
      const total = Number(head - startBlock + 1n);
      const rate = elapsed > 0 ? report.logs / elapsed : 0;
      const left =
        done > 0 && elapsed > 0 ? ((total - done) * elapsed) / done : 0;
      out.line(
        `index: block ${formatNumber(to)} of ${formatNumber(head)} (${Math.floor((100 * done) / Math.max(total, 1))}%), ${formatNumber(report.logs)} logs, ${formatNumber(Math.round(rate))} logs/s, ${Math.ceil(left)} s left`,
      );
    }
  }
  return report;
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
    const stored = block;
    const now = await reader.block(stored.number);
    if (now !== undefined && now.hash === stored.hash) {
      if (stored.number === highest) return undefined;
      await store.rewind(sources, stored.number);
      return stored.number;
    }
  }
  // Nothing stored matches any more: start every source over.
  await store.rewind(sources, -1n);
  return -1n;
}
