import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { DuckDBInstance } from "@duckdb/node-api";
import { expect } from "chai";
import { type JsonRpcProvider, Wallet } from "ethers";

import { ERRORS } from "../../tasks/error-catalog.js";
import { errorCode } from "../../tasks/errors.js";
import {
  startCometBftStandIn,
  type CometBftStandIn,
} from "../../tasks/stand-ins/cometbft.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import {
  TestToken__factory,
  TradeLog__factory,
} from "../../types/ethers-contracts/index.js";
import { failure } from "../helpers/failure.js";
import { runHardhat } from "../helpers/hardhat-cli.js";
import {
  freePort,
  startHardhatNode,
  type HardhatNode,
} from "../helpers/hardhat-node.js";
import {
  changeIndex,
  onlySourceId,
  queryIndex,
} from "../helpers/index-query.js";
import { DEPLOYER, DEPLOYER_KEY } from "../helpers/keys.js";
import {
  startMinievmProxy,
  type MinievmProxy,
} from "../helpers/minievm-proxy.js";
import { directProvider } from "../helpers/rig.js";
import { parseScoreCsv } from "../helpers/score-csv.js";

const T0 = 1_900_000_000n;
/** Stage 1 on the base chain; stage 2 is open. */
const STAGE1 = { start: T0, end: T0 + 1000n };
const E18 = 10n ** 18n;

const A = "0x1000000000000000000000000000000000000001";
const B = "0x2000000000000000000000000000000000000002";
const C = "0x3000000000000000000000000000000000000003";
const D = "0x4000000000000000000000000000000000000004";

/** A transaction: trades on TradeLog (trader, notional), or a token transfer. */
type Tx = { trades: [string, bigint][] } | { transfer: string };

/**
 * Blocks of several transactions each, mined at their times with automine
 * off. Token transfers in earlier transactions put the trades' logIndex
 * (numbered within the block by hardhat node) above 0. A's last trade in
 * stage 1 is the only trade of its transaction, after a transaction with two
 * trades of A: by (block, log_index within the transaction) alone, it would
 * come first.
 */
const BLOCKS: { time: bigint; txs: Tx[] }[] = [
  { time: T0 - 100n, txs: [{ trades: [[A, 9n * E18]] }] },
  {
    time: T0 + 10n,
    txs: [
      { transfer: A },
      {
        trades: [
          [B, 2n * E18],
          [A, 3n * E18],
          [A, 4n * E18],
        ],
      },
      { trades: [[A, E18 + 5n]] },
      {
        trades: [
          [C, 5n * E18],
          [B, 6n * E18],
        ],
      },
    ],
  },
  {
    time: T0 + 20n,
    txs: [
      { trades: [[C, 8n * E18]] },
      { transfer: B },
      {
        trades: [
          [C, 11n * E18],
          [C, 12n * E18 + E18 / 2n],
        ],
      },
      { trades: [[B, 13n * E18]] },
    ],
  },
  {
    time: T0 + 30n,
    txs: [
      { transfer: C },
      { transfer: C },
      {
        trades: [
          [B, E18],
          [D, 20n * E18],
        ],
      },
    ],
  },
  // After the window: closes stage 1 on the rollup's clock.
  { time: T0 + 1100n, txs: [{ trades: [[A, 100n * E18]] }] },
];

const LAST_TRADE = (trades: string) => `-- @policy last-trade
-- @from-stage 1
-- @source trades ${trades} event Trade(address indexed trader, uint256 notional, uint16 leverage)
select trader as address, arg_max(notional, (block_number, tx_index, log_index)) // 1000000000000000000 as score
from trades, stage
where block_time >= stage.start_time and block_time < stage.end_time
group by trader
`;

/** Each trader's last trade in stage 1, in chain order, computed here from what was sent. */
function expectedLastTrades(): Map<string, bigint> {
  const last = new Map<string, bigint>();
  for (const block of BLOCKS)
    if (block.time >= STAGE1.start && block.time < STAGE1.end)
      for (const tx of block.txs)
        if ("trades" in tx)
          for (const [trader, notional] of tx.trades)
            last.set(trader.toLowerCase(), notional / E18);
  return last;
}

/** The rows the index must hold: (block, tx_index from 0, log_index within the transaction, trader). */
function expectedRows(numbers: number[]): [string, number, number, string][] {
  return BLOCKS.flatMap((block, b) =>
    block.txs.flatMap((tx, t) =>
      "trades" in tx
        ? tx.trades.map(([trader], k): [string, number, number, string] => [
            String(numbers[b]),
            t,
            k,
            trader.toLowerCase(),
          ])
        : [],
    ),
  );
}

async function indexRows(file: string, id: string): Promise<unknown[][]> {
  return queryIndex(
    file,
    `select block_number::VARCHAR, tx_index, log_index, trader from log_${id} order by block_number, tx_index, log_index`,
  );
}

describe("log_index within the transaction: the same index and scores whether the node numbers logs within the block or within the transaction (minievm 1.2)", function () {
  let node: HardhatNode;
  let provider: JsonRpcProvider;
  let baseChain: L1RestStandIn;
  let work: string;
  let policy: string;
  let tradeLog: string;
  /** The block each entry of BLOCKS was mined in. */
  const numbers: number[] = [];

  before(async () => {
    node = await startHardhatNode();
    provider = directProvider(node);
    const wallet = new Wallet(DEPLOYER_KEY, provider);
    await provider.send("evm_setNextBlockTimestamp", [Number(T0 - 1000n)]);
    const trades = await new TradeLog__factory(wallet).deploy();
    await trades.waitForDeployment();
    const token = await new TestToken__factory(wallet).deploy(
      DEPLOYER,
      1_000_000n * E18,
    );
    await token.waitForDeployment();
    tradeLog = (await trades.getAddress()).toLowerCase();
    await provider.send("evm_setAutomine", [false]);
    let nonce = await provider.getTransactionCount(DEPLOYER, "latest");
    for (const block of BLOCKS) {
      // One sender, so the block holds the transactions in nonce order.
      for (const tx of block.txs)
        if ("trades" in tx)
          await trades.trade(
            tx.trades.map((x) => x[0]),
            tx.trades.map((x) => x[1]),
            tx.trades.map(() => 1),
            { nonce: nonce++, gasLimit: 500_000 },
          );
        else
          await token.transfer(tx.transfer, E18, {
            nonce: nonce++,
            gasLimit: 200_000,
          });
      await provider.send("evm_setNextBlockTimestamp", [Number(block.time)]);
      await provider.send("evm_mine", []);
      const mined = (await provider.send("eth_getBlockByNumber", [
        "latest",
        false,
      ])) as { number: string; transactions: string[] };
      expect(mined.transactions).to.have.length(block.txs.length);
      numbers.push(Number(mined.number));
    }
    await provider.send("evm_setAutomine", [true]);
    work = await mkdtemp(path.join(tmpdir(), "vip-log-index-"));
    policy = path.join(work, "last-trade.sql");
    await writeFile(policy, LAST_TRADE(tradeLog));
    baseChain = await startL1RestStandIn({
      stage: 2n,
      stageStartTime: STAGE1.end,
      stageEndTime: STAGE1.end + 1000n,
      stageInterval: 1000n,
      stageData: new Map([[1n, STAGE1]]),
      now: STAGE1.end + 500n,
    });
  });
  after(async () => {
    await Promise.all([node.close(), baseChain.close()]);
    await rm(work, { recursive: true, force: true });
  });

  let fresh = 0;
  const dirs = async () => {
    fresh++;
    const out = path.join(work, `out-${fresh}`);
    const data = path.join(work, `data-${fresh}`);
    return { out, data };
  };
  const run = (
    args: string[],
    { rpc = node.url, rollupRpc }: { rpc?: string; rollupRpc?: string } = {},
  ) =>
    runHardhat([...args, "--network", "rollup"], {
      JSON_RPC_URL: rpc,
      L1_REST_URL: baseChain.url,
      ROLLUP_RPC_URL: rollupRpc,
    });
  const compute = (
    { out, data }: { out: string; data: string },
    options: { rpc?: string; rollupRpc?: string } = {},
  ) =>
    run(
      [
        "scores:compute",
        "--policy",
        policy,
        "--stage",
        "1",
        "--out",
        out,
        "--data-dir",
        data,
      ],
      options,
    );
  const files = async (out: string) =>
    Promise.all(
      ["stage-1.final.csv", "stage-1.manifest.json"].map((name) =>
        readFile(path.join(out, name), "utf8"),
      ),
    );
  /** The id of the policy's one source in the index in `data`. */
  const sourceId = async (data: string) =>
    onlySourceId(path.join(data, `chain-${node.chainId}.duckdb`));

  describe("one closed stage computed from hardhat node and from a minievm-1.2 stand-in", () => {
    const direct = { out: "", data: "" };
    const perTransaction = { out: "", data: "" };
    const perBlock = { out: "", data: "" };
    let transactionProxy: MinievmProxy;
    let blockProxy: MinievmProxy;

    before(async () => {
      Object.assign(direct, await dirs());
      Object.assign(perTransaction, await dirs());
      Object.assign(perBlock, await dirs());
      transactionProxy = await startMinievmProxy(node.url, {
        logIndex: "transaction",
      });
      blockProxy = await startMinievmProxy(node.url);
      for (const [d, rpc] of [
        [direct, node.url],
        [perTransaction, transactionProxy.url],
        [perBlock, blockProxy.url],
      ] as const) {
        const result = await compute(d, { rpc });
        expect(result.code, result.output).to.equal(0);
      }
    });
    after(async () =>
      Promise.all([transactionProxy.close(), blockProxy.close()]),
    );

    it("gives byte-identical score files and manifests", async () => {
      const reference = await files(direct.out);
      expect(await files(perTransaction.out)).to.deep.equal(reference);
      expect(await files(perBlock.out)).to.deep.equal(reference);
      const manifest = JSON.parse(reference[1] ?? "{}") as {
        sources: { logs: number }[];
      };
      expect(manifest.sources[0]?.logs).to.equal(
        expectedRows(numbers).length - 1,
      );
    });

    it("stores the node's transactionIndex and each log's index within its transaction, either way", async () => {
      const id = await sourceId(direct.data);
      const expected = expectedRows(numbers);
      for (const d of [direct, perTransaction, perBlock])
        expect(
          await indexRows(
            path.join(d.data, `chain-${node.chainId}.duckdb`),
            id,
          ),
        ).to.deep.equal(expected);
    });

    it("asks for receipts only where the node numbers within the block and a transaction's first trade is not its block's first log, in the headers' batches", () => {
      expect(transactionProxy.receiptCalls).to.deep.equal({
        single: 0,
        batched: 0,
        withHeaders: 0,
      });
      // Block 1's three trading transactions, block 2's last two, block 3's.
      expect(blockProxy.receiptCalls.batched).to.equal(6);
      expect(blockProxy.receiptCalls.single).to.equal(0);
      expect(blockProxy.receiptCalls.withHeaders).to.be.greaterThan(0);
    });

    it("scores each trader's last trade in chain order (block, tx_index, log_index), as computed here from what was sent", async () => {
      const [csv] = await files(direct.out);
      const scores = parseScoreCsv(csv ?? "");
      expect(scores).to.deep.equal(expectedLastTrades());
      // A's last trade is the lone one of its transaction, not the second of
      // the transaction before it.
      expect(scores.get(A.toLowerCase())).to.equal(1n);
    });
  });

  it("refuses an index of format 1, naming the command that sets it aside; scores:index --rebuild moves it aside and indexes afresh", async () => {
    const d = await dirs();
    await mkdir(d.data, { recursive: true });
    const file = path.join(d.data, `chain-${node.chainId}.duckdb`);
    const old = await DuckDBInstance.create(file);
    const connection = await old.connect();
    for (const sql of [
      "create table sources (id varchar primary key, address varchar, event varchar, from_block bigint, next_block bigint)",
      "create table blocks (number bigint primary key, hash varchar, time bigint)",
      "create table log_0123456789abcdef (block_number bigint, block_time bigint, tx_hash varchar, log_index integer, trader varchar, notional hugeint, leverage hugeint)",
      "insert into log_0123456789abcdef values (1, 1, '0xaa', 0, '0x01', 1, 1)",
    ])
      await connection.run(sql);
    connection.closeSync();
    old.closeSync();

    const refused = await compute(d);
    const message = failure(refused, ERRORS.INDEXER.INDEX.INDEX_FORMAT_1);
    expect(message).to.include(file);
    expect(message).to.include(
      `npx hardhat scores:index --network rollup --policy ${policy} --data-dir ${d.data} --rebuild`,
    );
    expect(existsSync(d.out)).to.equal(false);

    const rebuilt = await run([
      "scores:index",
      "--policy",
      policy,
      "--data-dir",
      d.data,
      "--rebuild",
    ]);
    expect(rebuilt.code, rebuilt.output).to.equal(0);
    const aside = path.join(d.data, `chain-${node.chainId}.format-1.duckdb`);
    expect(rebuilt.stdout).to.include(
      `moved ${file} (format 1) aside to ${aside}`,
    );
    // The old index is kept as it was.
    const oldRows = await queryIndex(
      aside,
      "select tx_hash, log_index from log_0123456789abcdef",
    );
    expect(oldRows).to.deep.equal([["0xaa", 0]]);
    const computed = await compute(d);
    expect(computed.code, computed.output).to.equal(0);
    const [csv] = await files(d.out);
    expect(parseScoreCsv(csv ?? "")).to.deep.equal(expectedLastTrades());
  });

  it("refuses an index whose log table has a column type no version writes: exit 1 naming file and table, nothing appended", async () => {
    const d = await dirs();
    const indexed = await run([
      "scores:index",
      "--policy",
      policy,
      "--data-dir",
      d.data,
    ]);
    expect(indexed.code, indexed.output).to.equal(0);
    const file = path.join(d.data, `chain-${node.chainId}.duckdb`);
    const table = `log_${await onlySourceId(file)}`;
    const rows = async () =>
      queryIndex(file, `select count(*)::INTEGER from ${table}`);
    const before = await rows();
    const [[parameter]] = (await queryIndex(
      file,
      `select column_name from duckdb_columns() where table_name = '${table}' ` +
        "order by column_index desc limit 1",
    )) as [[string]];
    await changeIndex(
      file,
      `alter table ${table} alter column "${parameter}" type DOUBLE`,
    );
    // Blocks to fetch: a run that went on would move the cursor past them.
    const cursor = () => queryIndex(file, "select next_block from sources");
    const cursorBefore = await cursor();
    await provider.send("hardhat_mine", ["0x3"]);
    const refused = await run([
      "scores:index",
      "--policy",
      policy,
      "--data-dir",
      d.data,
    ]);
    const message = failure(refused, ERRORS.INDEXER.INDEX.INDEX_UNOPENABLE);
    expect(message).to.include(file);
    expect(message).to.include(
      `its table ${table} has a column of type DOUBLE`,
    );
    expect(await rows()).to.deep.equal(before);
    expect(await cursor()).to.deep.equal(cursorBefore);
  });

  describe("the rollup's minievm version, from CometBFT's abci_info", () => {
    let cometBft: CometBftStandIn;
    beforeEach(async () => {
      cometBft = await startCometBftStandIn({ version: "v1.0.2" });
    });
    afterEach(async () => cometBft.close());

    const warnings = (stderr: string) =>
      stderr.split("\n").filter((line) => line.startsWith("warning:"));
    const index = async (rollupRpc?: string) =>
      run(
        ["scores:index", "--policy", policy, "--data-dir", (await dirs()).data],
        { rollupRpc },
      );

    it("scores:index and scores:compute warn once when it is older than v1.1.9", async () => {
      const indexed = await index(cometBft.url);
      expect(indexed.code, indexed.output).to.equal(0);
      const computed = await compute(await dirs(), { rollupRpc: cometBft.url });
      expect(computed.code, computed.output).to.equal(0);
      for (const result of [indexed, computed])
        expect(warnings(result.stderr)).to.deep.equal([
          "warning: the rollup runs minievm v1.0.2, older than v1.1.9: its JSON-RPC never indexed logs of Cosmos-native transactions, so scores built from its logs miss them; upgrade the node",
        ]);
    });

    it("says nothing for v1.1.9 and later, or without vip.rollupRpcUrl; one short warning when the URL is configured but unreachable", async () => {
      cometBft.state.version = "v1.2.14";
      const current = await index(cometBft.url);
      const unset = await index();
      const port = await freePort();
      const unreachable = await index(`http://127.0.0.1:${port}`);
      for (const result of [current, unset, unreachable])
        expect(result.code, result.output).to.equal(0);
      expect(warnings(current.stderr)).to.deep.equal([]);
      expect(warnings(unset.stderr)).to.deep.equal([]);
      const [warning, ...more] = warnings(unreachable.stderr);
      expect(more).to.deep.equal([]);
      // The warning names its cause: the error, by its code, and the URL.
      expect(warning).to.match(
        new RegExp(
          `^warning: could not check the rollup's minievm version: ${errorCode(ERRORS.NETWORK.HTTP.UNREACHABLE)}: `,
        ),
      );
      expect(warning).to.include(`http://127.0.0.1:${port}/abci_info`);
    });
  });
});
