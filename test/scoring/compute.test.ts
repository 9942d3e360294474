import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { computeStage } from "../../tasks/scoring/compute.js";
import { LogColumns } from "../../tasks/indexer/decode.js";
import type { StageBlocks } from "../../tasks/scoring/stage-blocks.js";
import { ActivityStore } from "../../tasks/indexer/store.js";
import { parsePolicy, type Policy } from "../../tasks/policy/parse.js";

// Computing a stage is a pure function of (index, policy, window): these tests
// build an index by hand and run the real engine on it, no chain involved.
const CONTRACT = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const HEADER = `-- @policy table-test
-- @from-stage 1
-- @source trades ${CONTRACT} event Trade(address indexed trader, uint256 notional, uint16 leverage)
`;
const A = "0x1000000000000000000000000000000000000001";
const B = "0x2000000000000000000000000000000000000002";
const E30 = 10n ** 30n;

const WINDOW = { stage: 7n, start: 1_000n, end: 2_000n };
const BLOCKS: StageBlocks = {
  first: { number: 10n, hash: "0x" + "1".repeat(64), time: 1_000n },
  last: { number: 19n, hash: "0x" + "2".repeat(64), time: 1_900n },
  firstNumber: 10n,
  closed: true,
};

/** Trades (block, time, trader, notional, leverage); the last is after the stage. */
const TRADES: [bigint, bigint, string, bigint, bigint][] = [
  [5n, 500n, A, 3n, 1n],
  [10n, 1_000n, A, E30, 2n],
  [12n, 1_200n, A, E30 + 1n, 3n],
  [15n, 1_500n, B, 7n, 1n],
  [20n, 2_000n, B, 1_000n, 1n],
];

function policy(select: string): Policy {
  return parsePolicy("table.sql", HEADER + select);
}

describe("computing a stage on the index: exact or refused", () => {
  let dir: string;
  let file: string;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-compute-"));
    file = path.join(dir, "chain-1.duckdb");
    const store = await ActivityStore.open(file);
    const [source] = policy("select 1").sources;
    if (source === undefined) throw new Error("no source parsed");
    await store.ensureSource(source);
    const logs = new LogColumns(3);
    TRADES.forEach(([block, time, trader, notional, leverage], i) =>
      logs.push({
        blockNumber: block,
        blockTime: time,
        txHash: `0x${i.toString(16).padStart(64, "0")}`,
        txIndex: 0,
        logIndex: 0,
        values: [trader, notional, leverage],
      }),
    );
    await store.begin();
    await store.storeRange([source], 25n, new Map([[source.id, logs]]), []);
    await store.commit();
    store.close();
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  const run = (select: string) =>
    computeStage(file, policy(select), WINDOW, BLOCKS);
  const refused = async (select: string, pattern: RegExp) => {
    let message = "";
    await run(select).then(
      () => expect.fail(`not refused: ${select}`),
      (error: unknown) => {
        message = error instanceof Error ? error.message : String(error);
      },
    );
    expect(message).to.match(pattern);
    return message;
  };

  it("sums integers above 2^64 exactly, floors with //, and sees no log after the stage's last block", async () => {
    const scaled = await run(
      "select trader as address, sum(notional * (leverage + 1)) // 1000000000000000 as score from trades group by trader",
    );
    // 3·2 + 10^30·3 + (10^30 + 1)·4 = 7·10^30 + 10: a double would lose the 10.
    expect(scaled.rows).to.deep.equal([
      {
        address: A,
        score: (3n * 2n + E30 * 3n + (E30 + 1n) * 4n) / 10n ** 15n,
      },
      { address: B, score: 0n },
    ]);
    const exact = await run(
      `select trader as address, sum(notional * (leverage + 1)) - ${7n * E30} as score from trades group by trader having trader = '${A}'`,
    );
    expect(exact.rows).to.deep.equal([{ address: A, score: 10n }]);
    // B's trade in block 20 is after the stage's last block (19).
    const counted = await run(
      "select trader as address, count(*) as score from trades group by trader",
    );
    expect(counted.rows).to.deep.equal([
      { address: A, score: 3n },
      { address: B, score: 1n },
    ]);
  });

  it("gives the stage table: the base chain's window and the rollup's blocks", async () => {
    const { rows } = await run(
      `select '${A}' as address, stage * 1000000 + (end_time - start_time) * 100 + (last_block - first_block) as score from stage`,
    );
    expect(rows).to.deep.equal([
      { address: A, score: 7n * 1_000_000n + 100_000n + 9n },
    ]);
  });

  it("floors a DECIMAL score and keeps DECIMAL × DECIMAL exact", async () => {
    const { rows } = await run(
      "select trader as address, (count(*) * 10 + 7)::DECIMAL(18,0) * 0.25 as score from trades, stage where block_time >= stage.start_time and block_time < stage.end_time group by trader",
    );
    expect(rows).to.deep.equal([
      { address: A, score: 6n }, // 27 × 0.25 = 6.75
      { address: B, score: 4n }, // 17 × 0.25 = 4.25
    ]);
  });

  // facts §8: DuckDB's floating-point traps, each refused before the policy
  // runs, at its line and column, with the exact way to write it.
  const TRAPS: [string, string, RegExp][] = [
    [
      "`/` between integers",
      "select trader as address, sum(notional) / 2 as score from trades group by trader",
      /table\.sql:4:\d+: \/ 2 as score[\s\S]*use `\/\/`/,
    ],
    [
      "sum(UHUGEINT)",
      "select trader as address, sum(notional::UHUGEINT) // 1 as score from trades group by trader",
      /table\.sql:4:27: sum\(notional::UHUGEINT\)[\s\S]*sum\(x::HUGEINT\)/,
    ],
    [
      "avg",
      "select trader as address, avg(notional)::HUGEINT as score from trades group by trader",
      /table\.sql:4:27: avg\(notional\)[\s\S]*sum\(x\) \/\/ count\(\*\)/,
    ],
    [
      "DECIMAL / integer",
      "select trader as address, sum(leverage)::DECIMAL(18,2) / 3 as score from trades group by trader",
      /table\.sql:4:\d+:[\s\S]*`\/` divides in floating point/,
    ],
    [
      "a float literal",
      "select trader as address, (sum(notional) * 1.5e0)::HUGEINT as score from trades group by trader",
      /table\.sql:4:\d+:[\s\S]*float literal/,
    ],
    [
      "sqrt",
      "select trader as address, sqrt(sum(notional))::HUGEINT as score from trades group by trader",
      /table\.sql:4:27: sqrt[\s\S]*integer arithmetic/,
    ],
    [
      "a ::DOUBLE cast in a filter",
      "select trader as address, count(*) as score from trades\nwhere notional::DOUBLE > 2 group by trader",
      /table\.sql:5:\d+:/,
    ],
    [
      "BIGNUM × n",
      "select trader as address, (sum(notional::BIGNUM) * 2)::HUGEINT as score from trades group by trader",
      /table\.sql:4:\d+:/,
    ],
  ];
  for (const [trap, select, pattern] of TRAPS)
    it(`refuses ${trap}, naming the line and the exact alternative`, async () => {
      const message = await refused(select, pattern);
      expect(message).to.match(/computes in floating point/);
    });

  it("refuses a policy that does not parse, naming the file and the line", async () => {
    await refused(
      "select trader as address,\n  count(*) as score frm trades group by trader",
      /^table\.sql:5: Parser Error: syntax error at or near "frm"\nLINE 5: .*count\(\*\) as score frm trades/,
    );
  });

  it("refuses what is not one SELECT of address and score", async () => {
    await refused(
      "select 1 as address",
      /exactly two columns, address and score/,
    );
    await refused(
      "select trader as address, 1 as score from trades; select 2",
      /exactly one SELECT; this file holds 2/,
    );
    await refused(
      "delete from trades",
      /one SELECT, not another kind|Binder Error: Can only delete/,
    );
  });

  it("refuses an index that does not reach the stage's last block", async () => {
    const policy = parsePolicy(
      "table.sql",
      HEADER +
        "select trader as address, count(*) as score from trades group by trader",
    );
    const message = await computeStage(file, policy, WINDOW, {
      ...BLOCKS,
      last: { ...BLOCKS.last, number: 30n },
    }).then(
      () => "computed",
      (error: unknown) => (error instanceof Error ? error.message : ""),
    );
    expect(message).to.equal(
      "the index of source trades (table.sql:3) reaches only block 25, short of the stage's last block 30: run scores:index first",
    );
  });

  it("lets the policy read no file and reach no network", async () => {
    await refused(
      "select trader as address, 1 as score from trades, read_text('/etc/hostname') group by trader",
      /table\.sql:4:\d+: read_text\('\/etc\/hostname'\)[^\n]*\n {4}read_text\(…\) in FROM: it reads files/,
    );
    await refused(
      "select trader as address, count(*) as score from read_csv('https://example.com/x.csv') group by trader",
      /read_csv\(…\) in FROM: it reads files or runs other SQL/,
    );
  });

  it("lists every bad row by address, in address order: negative, too large, not an address", async () => {
    const message = await refused(
      `select trader as address, case when trader = '${A}' then -1 else 18446744073709551616 end as score from trades group by trader
union all select 'nobody', 1`,
      /3 score\(s\) cannot be written/,
    );
    const lines = message.split("\n").slice(1);
    expect(lines).to.deep.equal([
      `  stage 7: ${A}: its score -1 is negative`,
      `  stage 7: ${B}: its score 18446744073709551616 is above the uint64 maximum 18446744073709551615`,
      "  stage 7: nobody: is not an address (0x and 40 hex digits)",
    ]);
  });
});
