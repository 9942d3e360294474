import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { AbiCoder } from "ethers";

import type { RpcLog } from "../../tasks/indexer/decode.js";
import {
  FIRST_RANGE,
  LOGS_IN_FLIGHT,
  MAX_RANGE,
  nextRange,
  RangeSizes,
} from "../../tasks/indexer/index-sources.js";
import { RollupReader } from "../../tasks/indexer/rpc.js";
import { logTable } from "../../tasks/indexer/store.js";
import { parsePolicy } from "../../tasks/policy/parse.js";
import { indexAndQuery } from "../helpers/index-query.js";

const TRADES = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const [SOURCE] = parsePolicy(
  "ranges.sql",
  `-- @policy ranges\n-- @from-stage 1\n-- @source trades ${TRADES} event Trade(address indexed trader, uint256 notional, uint16 leverage)\nselect 1\n`,
).sources;
if (SOURCE === undefined) throw new Error("no source parsed");
const source = SOURCE;
const hex = (n: number) => `0x${n.toString(16)}`;
const blockHash = (n: number) => `0x${n.toString(16).padStart(64, "b")}`;

/**
 * A node of `blocks` blocks with `perBlock(n)` trades in block n, in one
 * transaction (notional n·1000 + k), whose `eth_getLogs` answers come after `delay(call)` ms, so
 * that a later request can be answered first, and which refuses a range
 * wider than `maxRange` as minievm does. It records each range asked for,
 * every call in the order it was made, and the most requests it held at once.
 */
function slowNode(
  blocks: number,
  perBlock: (n: number) => number,
  options: {
    delay?: (call: number) => number;
    maxRange?: number;
    /** The calls answered with `null` instead of a list of logs. */
    nullAt?: number[];
  } = {},
) {
  const logs: RpcLog[] = [];
  for (let n = 1; n <= blocks; n++)
    for (let k = 0; k < perBlock(n); k++)
      logs.push({
        address: TRADES,
        topics: [
          source.topic,
          `0x${(n * 16 + k + 1).toString(16).padStart(64, "0")}`,
        ],
        data: new AbiCoder().encode(["uint256", "uint16"], [n * 1000 + k, 2]),
        blockNumber: hex(n),
        blockHash: blockHash(n),
        transactionHash: `0x${n.toString(16).padStart(64, "0")}`,
        transactionIndex: "0x0",
        logIndex: hex(k),
      });
  const asked: { from: number; to: number; refused: boolean }[] = [];
  const calls: { method: string; block: number }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const getLogs = async (filter: {
    fromBlock: string;
    toBlock: string;
  }): Promise<RpcLog[]> => {
    const from = Number(filter.fromBlock);
    const to = Number(filter.toBlock);
    const call = asked.length;
    const refused =
      options.maxRange !== undefined && to - from + 1 > options.maxRange;
    asked.push({ from, to, refused });
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    await new Promise((resolve) =>
      setTimeout(resolve, options.delay?.(call) ?? 0),
    );
    inFlight--;
    if (refused)
      throw new Error(`block range exceeded ${String(options.maxRange)}`);
    if (options.nullAt?.includes(call) === true)
      return null as unknown as RpcLog[];
    return logs.filter(
      (log) => Number(log.blockNumber) >= from && Number(log.blockNumber) <= to,
    );
  };
  const provider = {
    request: async ({
      method,
      params = [],
    }: {
      method: string;
      params?: unknown[];
    }): Promise<unknown> => {
      const first = params[0] as string | { fromBlock: string } | undefined;
      calls.push({
        method,
        block: Number(typeof first === "object" ? first.fromBlock : first),
      });
      if (method === "eth_blockNumber") return hex(blocks);
      if (method === "eth_getBlockByNumber") {
        const n = Number(params[0]);
        return n > blocks
          ? null
          : { hash: blockHash(n), timestamp: hex(1000 + n) };
      }
      if (method === "eth_getLogs")
        return getLogs(params[0] as { fromBlock: string; toBlock: string });
      throw new Error(`unexpected ${method}`);
    },
  };
  return {
    logs,
    asked,
    calls,
    provider,
    mostInFlight: () => mostInFlight,
    inFlight: () => inFlight,
  };
}

/** The ranges a client asks for in turn, one at a time, sized as the index sizes them. */
function rangesInTurn(
  head: number,
  logsIn: (from: number, to: number) => number,
): { from: number; to: number }[] {
  const sizes = new RangeSizes();
  const ranges: { from: number; to: number }[] = [];
  for (let from = 0n; from <= BigInt(head);) {
    const size = sizes.peek() ?? 0n;
    sizes.take();
    const to =
      from + size - 1n < BigInt(head) ? from + size - 1n : BigInt(head);
    ranges.push({ from: Number(from), to: Number(to) });
    sizes.answered(to - from + 1n, logsIn(Number(from), Number(to)));
    from = to + 1n;
  }
  return ranges;
}

describe("the index's ranges, LOGS_IN_FLIGHT asked for at once", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-ranges-"));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  let runs = 0;
  /** Indexes the node's chain; the rows stored, in chain order. */
  const index = (node: ReturnType<typeof slowNode>) =>
    indexAndQuery(
      path.join(dir, `chain-${++runs}.duckdb`),
      new RollupReader(node.provider),
      [source],
      `select block_number::INTEGER, log_index, notional::VARCHAR from ${logTable(source)} order by block_number, log_index`,
    );
  const expectedRows = (node: ReturnType<typeof slowNode>) =>
    node.logs.map((log) => [
      Number(log.blockNumber),
      Number(log.logIndex),
      String(Number(log.blockNumber) * 1000 + Number(log.logIndex)),
    ]);

  it("sizes each range from the answer LOGS_IN_FLIGHT before it: the first ones FIRST_RANGE, then as nextRange says", () => {
    expect(LOGS_IN_FLIGHT).to.equal(2);
    const sizes = new RangeSizes();
    expect(sizes.peek()).to.equal(FIRST_RANGE);
    sizes.take();
    expect(sizes.peek()).to.equal(FIRST_RANGE);
    sizes.take();
    // Both in flight: nothing more to ask for until an answer comes.
    expect(sizes.peek()).to.equal(undefined);
    sizes.answered(100n, 0);
    expect(sizes.peek()).to.equal(nextRange(100n, 0, MAX_RANGE));
    sizes.answered(100n, 20_000);
    sizes.take();
    expect(sizes.peek()).to.equal(nextRange(100n, 20_000, MAX_RANGE));
    sizes.stop();
    expect(sizes.peek()).to.equal(undefined);
    sizes.restart(7n);
    sizes.take();
    expect(sizes.peek()).to.equal(7n);
  });

  it("keeps two requests at the node, asks for the ranges a client asking one at a time would, and stores every log once, whichever answer comes first", async () => {
    // Every other answer held back, so the later request is answered first.
    const node = slowNode(5_000, (n) => (n % 7 === 0 ? 3 : n % 2), {
      delay: (call) => (call % 2 === 0 ? 15 : 0),
    });
    const rows = await index(node);
    expect(rows).to.deep.equal(expectedRows(node));
    expect(node.mostInFlight()).to.equal(LOGS_IN_FLIGHT);
    const logsIn = (from: number, to: number) =>
      node.logs.filter(
        (log) =>
          Number(log.blockNumber) >= from && Number(log.blockNumber) <= to,
      ).length;
    expect(node.asked.map(({ from, to }) => ({ from, to }))).to.deep.equal(
      rangesInTurn(5_000, logsIn),
    );
  });

  it("asks for a range's block headers before the range after it: the node serves first what the run waits on", async () => {
    const node = slowNode(3_000, (n) => (n % 5 === 0 ? 2 : 0));
    const rows = await index(node);
    expect(rows).to.deep.equal(expectedRows(node));
    expect(node.asked.length).to.be.greaterThan(LOGS_IN_FLIGHT + 2);
    const logsCall = (range: { from: number }) =>
      node.calls.findIndex(
        (c) => c.method === "eth_getLogs" && c.block === range.from,
      );
    // Each answer's headers are asked for before the range its arrival lets
    // the run ask for (LOGS_IN_FLIGHT ranges after it).
    node.asked.slice(0, -LOGS_IN_FLIGHT).forEach((range, k) => {
      const next = node.asked[k + LOGS_IN_FLIGHT] ?? range;
      const headers = node.calls.findIndex(
        (c) =>
          c.method === "eth_getBlockByNumber" &&
          c.block >= range.from &&
          c.block <= range.to,
      );
      expect(
        headers,
        `headers of blocks ${range.from}–${range.to}`,
      ).to.be.greaterThan(logsCall(range));
      expect(
        headers,
        `headers of blocks ${range.from}–${range.to}`,
      ).to.be.lessThan(logsCall(next));
    });
  });

  it("a range refused as too wide: asked again at the node's limit from where it began, the ranges asked for after it dropped, every log stored once", async () => {
    // Blocks 0-99 sparse and 100-199 dense: the third range (400 blocks) is
    // refused while the fourth (333), asked for beside it, is answered, and
    // must be dropped: its blocks come again after the third's, narrowed.
    const node = slowNode(
      3_000,
      (n) => (n >= 100 && n < 200 ? 30 : n % 3 === 0 ? 1 : 0),
      {
        delay: (call) => (call % 3 === 1 ? 10 : 0),
        maxRange: 350,
      },
    );
    const rows = await index(node);
    expect(rows).to.deep.equal(expectedRows(node));
    const refused = node.asked.filter((a) => a.refused);
    expect(refused.length).to.be.greaterThan(0);
    // Once the limit is known, nothing wider is asked for.
    const firstRefusal = node.asked.findIndex((a) => a.refused);
    const afterIt = node.asked.slice(firstRefusal + LOGS_IN_FLIGHT);
    expect(afterIt.every((a) => a.to - a.from + 1 <= 350)).to.equal(true);
    // The fourth range was answered, and its blocks asked for again.
    expect(node.asked[3]).to.deep.include({ from: 600, refused: false });
    expect(
      node.asked.slice(4).some((a) => a.from <= 600 && a.to >= 600),
    ).to.equal(true);
    // The answered ranges cover every block.
    const covered = new Set<number>();
    for (const a of node.asked.filter((r) => !r.refused))
      for (let n = a.from; n <= a.to; n++) covered.add(n);
    expect(covered.size).to.equal(3_001);
  });

  it("an answer that is not a list of logs ends the run with its error, the ranges asked beside it leaving no unhandled rejection", async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", listener);
    try {
      // The fifth and sixth answers are null: the sixth's is taken after
      // the run has ended with the fifth's.
      const node = slowNode(5_000, (n) => n % 2, {
        nullAt: [4, 5],
        delay: (call) => (call === 5 ? 30 : 0),
      });
      let error: unknown;
      await index(node).catch((e: unknown) => (error = e));
      expect(error).to.be.instanceOf(TypeError);
      // Once every range asked for is answered, their rejections, were
      // there any, surface within a turn of the event loop.
      for (let polls = 0; node.inFlight() > 0 && polls < 500; polls++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(node.inFlight()).to.equal(0);
      for (let turn = 0; turn < 3; turn++)
        await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).to.deep.equal([]);
    } finally {
      process.off("unhandledRejection", listener);
    }
  });
});
