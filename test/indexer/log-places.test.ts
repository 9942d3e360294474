import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { AbiCoder, id, zeroPadValue } from "ethers";

import { ERRORS, type ErrorDescriptor } from "../../tasks/error-catalog.js";
import { isVipError, type VipError } from "../../tasks/errors.js";
import type { RpcLog } from "../../tasks/indexer/decode.js";
import {
  receiptOffsets,
  receiptsNeeded,
  type TxReceipt,
} from "../../tasks/indexer/log-places.js";
import { RollupReader } from "../../tasks/indexer/rpc.js";
import { ActivityStore, logTable } from "../../tasks/indexer/store.js";
import { parsePolicy } from "../../tasks/policy/parse.js";
import { thrownParams } from "../helpers/failure.js";
import { indexAndQuery } from "../helpers/index-query.js";

const TRADES = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const TOKEN = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
const TRANSFER = id("Transfer(address,address,uint256)");
const [SOURCE] = parsePolicy(
  "places.sql",
  `-- @policy places\n-- @from-stage 1\n-- @source trades ${TRADES} event Trade(address indexed trader, uint256 notional, uint16 leverage)\nselect 1\n`,
).sources;
if (SOURCE === undefined) throw new Error("no source parsed");
const source = SOURCE;

/** A log a transaction emits: a trade (the source's) or a token transfer. */
type Emitted = { trade: bigint } | { transfer: true };
/** Blocks 1, 2, …: each a list of transactions, each the logs it emits. */
type Chain = Emitted[][][];

const hashOf = (block: number, tx: number) =>
  `0x${block.toString(16).padStart(32, "0")}${tx.toString(16).padStart(32, "0")}`;
const blockHash = (block: number) =>
  `0x${"b".repeat(62)}${block.toString(16).padStart(2, "0")}`;
const hex = (n: number) => `0x${n.toString(16)}`;

/**
 * A node over `chain`, numbering `logIndex` within the block (Ethereum,
 * minievm from v1.3) or within the transaction (minievm through v1.2), and
 * counting `transactionIndex` from 1 as minievm does. Its receipts can be
 * made to disagree with its logs.
 */
function fakeNode(
  chain: Chain,
  numbering: "block" | "transaction",
  receiptOf: (hash: string, receipt: RpcReceipt) => RpcReceipt | null = (
    _,
    r,
  ) => r,
) {
  const logs: RpcLog[] = [];
  const receipts = new Map<string, RpcReceipt>();
  chain.forEach((txs, b) => {
    const block = b + 1;
    let inBlock = 0;
    txs.forEach((emitted, t) => {
      const hash = hashOf(block, t);
      const receiptLogs: RpcLog[] = emitted.map((e, k) => ({
        address: "trade" in e ? TRADES : TOKEN,
        topics:
          "trade" in e
            ? [source.topic, zeroPadValue(`0x${"1".repeat(40)}`, 32)]
            : [TRANSFER],
        data:
          "trade" in e
            ? new AbiCoder().encode(["uint256", "uint16"], [e.trade, 2])
            : "0x",
        blockNumber: hex(block),
        blockHash: blockHash(block),
        transactionHash: hash,
        transactionIndex: hex(t + 1),
        logIndex: hex(numbering === "block" ? inBlock + k : k),
      }));
      inBlock += emitted.length;
      receipts.set(hash, { blockHash: blockHash(block), logs: receiptLogs });
      logs.push(...receiptLogs);
    });
  });
  const calls: string[] = [];
  const answer = (method: string, params: unknown[]): unknown => {
    calls.push(method);
    if (method === "eth_blockNumber") return hex(chain.length);
    if (method === "eth_getBlockByNumber") {
      const n = Number(params[0]);
      return n > chain.length
        ? null
        : { hash: blockHash(n), timestamp: hex(1000 + n) };
    }
    if (method === "eth_getTransactionReceipt") {
      const hash = String(params[0]);
      const receipt = receipts.get(hash);
      return receipt === undefined ? null : receiptOf(hash, receipt);
    }
    if (method === "eth_getLogs") {
      const filter = params[0] as {
        fromBlock: string;
        toBlock: string;
        address: string[];
        topics: string[][];
      };
      return logs.filter(
        (log) =>
          Number(log.blockNumber) >= Number(filter.fromBlock) &&
          Number(log.blockNumber) <= Number(filter.toBlock) &&
          filter.address.includes(log.address) &&
          (filter.topics[0] ?? []).includes(log.topics[0] ?? ""),
      );
    }
    throw new Error(`unexpected ${method}`);
  };
  const batches: string[][] = [];
  return {
    calls,
    batches,
    provider: {
      request: ({ method, params }: { method: string; params?: unknown[] }) =>
        Promise.resolve(answer(method, params ?? [])),
    },
    batch: (list: { method: string; params: unknown[] }[]) => {
      batches.push(list.map((c) => c.method));
      return Promise.resolve(list.map((c) => answer(c.method, c.params)));
    },
  };
}

interface RpcReceipt {
  blockHash: string;
  logs: RpcLog[];
}

/** Blocks where offsets are not 0: token transfers in earlier transactions, or earlier in the same one. */
const CHAIN: Chain = [
  // Block 1: a transfer, then trades in three transactions.
  [
    [{ transfer: true }],
    [{ trade: 10n }, { trade: 11n }],
    [{ trade: 12n }],
    [{ trade: 13n }, { trade: 14n }, { trade: 15n }],
  ],
  // Block 2: the first transaction trades; then one that transfers first.
  [[{ trade: 20n }], [{ transfer: true }, { trade: 21n }, { trade: 22n }]],
  // Block 3: one transaction, whose first log is a transfer.
  [[{ transfer: true }, { transfer: true }, { trade: 30n }]],
];

/** What the index must store: (block, tx_index, log_index within the tx, notional). */
const EXPECTED = [
  ["1", 2, 0, "10"],
  ["1", 2, 1, "11"],
  ["1", 3, 0, "12"],
  ["1", 4, 0, "13"],
  ["1", 4, 1, "14"],
  ["1", 4, 2, "15"],
  ["2", 1, 0, "20"],
  ["2", 2, 1, "21"],
  ["2", 2, 2, "22"],
  ["3", 1, 2, "30"],
];

describe("log_index within the transaction, whichever way the node numbers", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-places-"));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  let runs = 0;
  const index = (
    node: ReturnType<typeof fakeNode>,
    batched: boolean,
  ): Promise<unknown[][]> =>
    indexAndQuery(
      path.join(dir, `chain-${++runs}.duckdb`),
      new RollupReader(
        node.provider,
        undefined,
        batched ? node.batch : undefined,
      ),
      [source],
      `select block_number::VARCHAR, tx_index, log_index, notional::VARCHAR from ${logTable(source)} order by block_number, tx_index, log_index`,
    );
  const receipts = (node: ReturnType<typeof fakeNode>) =>
    node.calls.filter((c) => c === "eth_getTransactionReceipt").length;

  it("per-block numbering: subtracts each offset its receipt gives, read in the batches of the headers, only for transactions whose first log in the answer is not 0", async () => {
    const node = fakeNode(CHAIN, "block");
    expect(await index(node, true)).to.deep.equal(EXPECTED);
    // Block 1's three trading transactions, block 2's second, block 3's.
    expect(receipts(node)).to.equal(5);
    const withReceipts = node.batches.filter((b) =>
      b.includes("eth_getTransactionReceipt"),
    );
    expect(withReceipts).to.have.length(1);
    expect(withReceipts[0]).to.include("eth_getBlockByNumber");
  });

  it("per-transaction numbering: no receipt in a block that shows it (a later transaction starting at or below an earlier one's last index), one for each transaction starting above 0 in a block that does not", async () => {
    const node = fakeNode(CHAIN, "transaction");
    expect(await index(node, false)).to.deep.equal(EXPECTED);
    // Block 1 shows it; block 2's second transaction and block 3's do not.
    expect(receipts(node)).to.equal(2);
  });

  it("per-transaction numbering the answer does not show: the receipt gives offset 0", async () => {
    // Only block 3: one transaction whose trade is its third log.
    const node = fakeNode(
      [[[{ transfer: true }]], CHAIN[2] ?? []],
      "transaction",
    );
    // Without batches: the receipt is a request of its own.
    expect(await index(node, false)).to.deep.equal([["2", 1, 2, "30"]]);
    expect(receipts(node)).to.equal(1);
  });

  it("a receipt that disagrees with the logs is an error naming the transaction and the block, and nothing is stored", async () => {
    // Each error, and what its values must name (the transaction, the block).
    const cases: [
      (hash: string, r: RpcReceipt) => RpcReceipt | null,
      ErrorDescriptor,
      Record<string, RegExp>,
    ][] = [
      [
        () => null,
        ERRORS.INDEXER.NODE.NO_RECEIPT,
        { where: /^transaction 0x0+20+ \(block 2\)$/ },
      ],
      [
        (_, r) => ({ ...r, blockHash: `0x${"c".repeat(64)}` }),
        ERRORS.INDEXER.NODE.RECEIPT_OF_OTHER_BLOCK,
        {
          where: /^transaction 0x0+20+ \(block 2\)$/,
          receiptBlock: /^0xc{64}$/,
          logsBlock: /^0xb+02$/,
        },
      ],
      [
        (_, r) => ({ ...r, logs: [r.logs[0], r.logs[2]] as RpcLog[] }),
        ERRORS.INDEXER.NODE.LOG_NOT_IN_RECEIPT,
        {
          index: /^2$/,
          hash: /^0x0+20+$/,
          block: /^2$/,
          place: /^2$/,
          offset: /^0$/,
        },
      ],
    ];
    for (const [receiptOf, expected, values] of cases) {
      const node = fakeNode(
        [[[{ trade: 1n }]], CHAIN[2] ?? []],
        "block",
        receiptOf,
      );
      let error: unknown;
      await index(node, true).catch((e: unknown) => (error = e));
      expect(isVipError(error, expected), String(error)).to.equal(true);
      const params = (error as VipError).params as Record<string, unknown>;
      for (const [name, value] of Object.entries(values))
        expect(String(params[name]), name).to.match(value);
      const store = await ActivityStore.open(
        path.join(dir, `chain-${runs}.duckdb`),
      );
      const rows = await store.rows(
        `select count(*)::INTEGER from ${logTable(source)}`,
      );
      store.close();
      expect(rows).to.deep.equal([[0]]);
    }
  });
});

describe("which transactions of an answer need a receipt", () => {
  const log = (block: number, tx: number, logIndex: number): RpcLog => ({
    address: TRADES,
    topics: [source.topic],
    data: "0x",
    blockNumber: hex(block),
    blockHash: blockHash(block),
    transactionHash: hashOf(block, tx),
    transactionIndex: hex(tx),
    logIndex: hex(logIndex),
  });

  it("none when every transaction's first log is 0", () => {
    expect(
      receiptsNeeded([log(1, 0, 0), log(1, 0, 1), log(1, 1, 0)]),
    ).to.deep.equal([]);
  });

  it("those starting above 0, unless their block shows per-transaction numbering", () => {
    const perBlock = [log(1, 0, 1), log(1, 1, 3), log(1, 1, 4), log(2, 0, 0)];
    expect(receiptsNeeded(perBlock).map((n) => n.hash)).to.deep.equal([
      hashOf(1, 0),
      hashOf(1, 1),
    ]);
    // Block 2's second transaction starts at 1, not above the first's last
    // (1): block 2 is numbered per transaction, block 1 still shows nothing.
    const shown = [...perBlock, log(2, 0, 1), log(2, 1, 1)];
    expect(receiptsNeeded(shown).map((n) => n.hash)).to.deep.equal([
      hashOf(1, 0),
      hashOf(1, 1),
    ]);
    expect(
      receiptsNeeded([log(2, 0, 0), log(2, 0, 1), log(2, 1, 1)]),
    ).to.deep.equal([]);
  });

  it("refuses two transactions at one index of a block, a transaction at two places, a transactionIndex that is not a quantity", () => {
    expect(
      thrownParams(
        () =>
          receiptsNeeded([
            log(1, 0, 1),
            { ...log(1, 1, 2), transactionIndex: "0x0" },
          ]),
        ERRORS.INDEXER.NODE.TXS_AT_ONE_INDEX,
      ),
    ).to.deep.equal({
      first: hashOf(1, 0),
      second: hashOf(1, 1),
      index: 0,
      block: "0x1",
    });
    expect(
      thrownParams(
        () =>
          receiptsNeeded([
            log(1, 0, 1),
            { ...log(1, 0, 2), transactionIndex: "0x5" },
          ]),
        ERRORS.INDEXER.NODE.TX_AT_TWO_PLACES,
      ),
    ).to.include({ hash: hashOf(1, 0), otherIndex: "0x5" });
    expect(
      thrownParams(
        () => receiptsNeeded([{ ...log(1, 0, 1), transactionIndex: "1" }]),
        ERRORS.INDEXER.LOGS.TX_INDEX_NOT_HEX,
      ),
    ).to.include({ txIndex: "1" });
  });

  it("offsets from receipts, each log checked at its place", () => {
    const logs = [log(1, 0, 4), log(1, 0, 6)];
    const needs = receiptsNeeded(logs);
    const receipt: TxReceipt = {
      blockHash: blockHash(1),
      logIndices: ["0x3", "0x4", "0x5", "0x6"],
    };
    expect([...receiptOffsets(logs, needs, [receipt])]).to.deep.equal([
      [hashOf(1, 0), 3],
    ]);
    expect(
      thrownParams(
        () =>
          receiptOffsets(logs, needs, [
            { ...receipt, logIndices: ["0x3", "0x4", "0x6"] },
          ]),
        ERRORS.INDEXER.NODE.LOG_NOT_IN_RECEIPT,
      ),
    ).to.include({ index: 6, hash: hashOf(1, 0), place: 3 });
    const noLogs = thrownParams(
      () => receiptOffsets(logs, needs, [{ ...receipt, logIndices: [] }]),
      ERRORS.INDEXER.NODE.RECEIPT_FIRST_LOG,
    );
    expect(noLogs.where).to.equal(`transaction ${hashOf(1, 0)} (block 1)`);
    expect(noLogs.problem).to.equal("has no logs");
  });
});
