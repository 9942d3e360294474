import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { ERRORS, type ErrorDescriptor } from "../../tasks/error-catalog.js";
import {
  isVipError,
  type ErrorParams,
  type VipError,
} from "../../tasks/errors.js";
import { LogColumns } from "../../tasks/indexer/decode.js";
import { ActivityStore } from "../../tasks/indexer/store.js";
import { parsePolicy, type Policy } from "../../tasks/policy/parse.js";
import { computeStage } from "../../tasks/scoring/compute.js";
import { unpackRows } from "../../tasks/scoring/score-rows.js";
import { STAGE_BLOCKS, STAGE_WINDOW } from "../helpers/trade-index.js";

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

const WINDOW = STAGE_WINDOW;
const BLOCKS = STAGE_BLOCKS;

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

  const run = async (select: string) => {
    const computed = await computeStage(file, policy(select), WINDOW, BLOCKS);
    return { ...computed, rows: unpackRows(computed.rows) };
  };
  /**
   * The values of the error `select` is refused with, after asserting it is
   * `expected`, and that they (one `name: value` a line) match `names`.
   */
  const refused = async <D extends ErrorDescriptor>(
    select: string,
    expected: D,
    names?: RegExp,
  ): Promise<ErrorParams<D>> => {
    let error: unknown;
    await run(select).then(
      () => expect.fail(`not refused: ${select}`),
      (e: unknown) => {
        error = e;
      },
    );
    expect(isVipError(error, expected), String(error)).to.equal(true);
    const params = (error as VipError<D>).params;
    if (names !== undefined)
      expect(
        Object.entries(params as Record<string, unknown>)
          .map(([name, value]) => `${name}: ${String(value)}`)
          .join("\n"),
      ).to.match(names);
    return params;
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
      /table\.sql:4:\d+: \/ 2 as score[\s\S]*`\/\/`/,
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
      /table\.sql:4:\d+: \/ 3 as score/,
    ],
    [
      "a float literal",
      "select trader as address, (sum(notional) * 1.5e0)::HUGEINT as score from trades group by trader",
      /table\.sql:4:\d+: 1\.5e0\)/,
    ],
    [
      "sqrt",
      "select trader as address, sqrt(sum(notional))::HUGEINT as score from trades group by trader",
      /table\.sql:4:27: sqrt\(sum\(notional\)\)/,
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
      const { file } = await refused(
        select,
        ERRORS.SCORING.ADMISSION.POLICY_FLOATING,
        pattern,
      );
      expect(file).to.equal("table.sql");
    });

  it("refuses a policy that does not parse, naming the file and the line", async () => {
    await refused(
      "select trader as address,\n  count(*) as score frm trades group by trader",
      ERRORS.SCORING.ADMISSION.POLICY_SQL_ERROR,
      /^place: table\.sql:5\nreason: [^\n]*"frm"\ncontext: \nLINE 5: .*count\(\*\) as score frm trades/,
    );
  });

  it("refuses what is not one SELECT of address and score", async () => {
    expect(
      await refused(
        "select 1 as address",
        ERRORS.SCORING.ADMISSION.POLICY_COLUMNS,
      ),
    ).to.deep.equal({ file: "table.sql", columns: "address" });
    expect(
      await refused(
        "select trader as address, 1 as score from trades; select 2",
        ERRORS.SCORING.ADMISSION.POLICY_NOT_ONE_STATEMENT,
      ),
    ).to.deep.equal({ file: "table.sql", count: 2 });
    expect(
      await refused(
        "delete from trades",
        ERRORS.SCORING.ADMISSION.POLICY_NOT_SELECT,
      ),
    ).to.deep.equal({ file: "table.sql" });
  });

  it("refuses an index that does not reach the stage's last block", async () => {
    const policy = parsePolicy(
      "table.sql",
      HEADER +
        "select trader as address, count(*) as score from trades group by trader",
    );
    const error = await computeStage(file, policy, WINDOW, {
      ...BLOCKS,
      last: { ...BLOCKS.last, number: 30n },
    }).then(
      () => "computed",
      (e: unknown) => e,
    );
    expect(
      isVipError(error, ERRORS.SCORING.RUN.INDEX_SHORT) && error.params,
      String(error),
    ).to.deep.equal({
      table: "trades",
      file: "table.sql",
      line: 3,
      reach: "reaches only block 25",
      last: 30n,
    });
  });

  it("lets the policy read no file and reach no network", async () => {
    await refused(
      "select trader as address, 1 as score from trades, read_text('/etc/hostname') group by trader",
      ERRORS.SCORING.ADMISSION.POLICY_REFUSED,
      /table\.sql:4:\d+: read_text\('\/etc\/hostname'\)/,
    );
    await refused(
      "select trader as address, count(*) as score from read_csv('https://example.com/x.csv') group by trader",
      ERRORS.SCORING.ADMISSION.POLICY_REFUSED,
      /table\.sql:4:\d+: read_csv\('https:\/\/example\.com\/x\.csv'\)/,
    );
  });

  it("lists every bad row by address, in address order: negative, too large, not an address", async () => {
    const { count, problems } = await refused(
      `select trader as address, case when trader = '${A}' then -1 else 18446744073709551616 end as score from trades group by trader
union all select 'nobody', 1`,
      ERRORS.SCORING.RESULTS.SCORES_INVALID,
    );
    expect(count).to.equal(3);
    // One line a row, in address order, each naming its stage, address and
    // score.
    const lines = String(problems).split("\n");
    expect(lines).to.have.length(3);
    expect(lines[0]).to.match(new RegExp(`^ {2}stage 7: ${A}: .*-1\\b`));
    expect(lines[1]).to.match(
      new RegExp(`^ {2}stage 7: ${B}: .*18446744073709551616\\b`),
    );
    expect(lines[2]).to.match(/^ {2}stage 7: nobody: /);
  });
});
