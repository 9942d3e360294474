import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { LogColumns } from "../../tasks/indexer/decode.js";
import { ActivityStore, logTable } from "../../tasks/indexer/store.js";
import { storedType } from "../../tasks/indexer/stored-columns.js";
import { parsePolicy, type PolicySource } from "../../tasks/policy/parse.js";
import { computeStage } from "../../tasks/scoring/compute.js";
import { unpackRows } from "../../tasks/scoring/score-rows.js";
import { refusal } from "../helpers/failure.js";
import { closedStageBlocks } from "../helpers/trade-index.js";

// An integer parameter whose Solidity type fits 64 bits is stored as BIGINT
// (a byte or two a value, not HUGEINT's 16), and every policy still sees it as
// HUGEINT: these tests compute the same stage from an index made so and from
// one made before, whose every integer is HUGEINT, and compare.
const CONTRACT = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const EVENT =
  "event Trade(address indexed trader, uint256 notional, uint16 leverage, int64 delta, uint64 big, bool long)";
// Each product overflows a BIGINT for the larger values: only HUGEINT
// arithmetic gives the score.
const POLICY = parsePolicy(
  "narrow.sql",
  `-- @policy narrow-test
-- @from-stage 1
-- @source trades ${CONTRACT} ${EVENT}
select trader as address, sum(notional // 1000000000000000
  + (leverage * 9223372036854775807) // 9223372036854775807
  + abs(delta * 4611686018427387904) // 4611686018427387904
  + big // 1000000
  + (case when long then 1 else 0 end)) as score
from trades, stage
where block_number between stage.first_block and stage.last_block
group by trader
`,
);
const SOURCE = POLICY.sources[0] as PolicySource;
const WINDOW = { stage: 1n, start: 1_000n, end: 2_000n };
const BLOCKS = closedStageBlocks(1n, 40n);

interface Trade {
  block: bigint;
  trader: string;
  notional: bigint;
  leverage: bigint;
  delta: bigint;
  big: bigint;
  long: boolean;
}

const TRADES: Trade[] = Array.from({ length: 120 }, (_, i) => ({
  block: BigInt(1 + (i >> 2)),
  trader: `0x${(1 + (i % 7)).toString(16).padStart(40, "0")}`,
  notional: 10n ** 30n + BigInt(i * 977),
  leverage: BigInt((i * 37) % 65_536),
  delta: BigInt((i % 11) - 5) * 2n ** 40n,
  big: 2n ** 64n - 1n - BigInt(i),
  long: i % 3 === 0,
}));

/** The scores the policy gives, worked out here. */
function expectedScores(): Map<string, bigint> {
  const scores = new Map<string, bigint>();
  for (const t of TRADES) {
    const score =
      t.notional / 10n ** 15n +
      t.leverage +
      (t.delta < 0n ? -t.delta : t.delta) +
      t.big / 1_000_000n +
      (t.long ? 1n : 0n);
    scores.set(t.trader, (scores.get(t.trader) ?? 0n) + score);
  }
  return scores;
}

/** The table an index made before this change held: every integer HUGEINT. */
const TABLE_BEFORE =
  `create table ${logTable(SOURCE)} (block_number bigint, block_time bigint, ` +
  "tx_hash varchar, tx_index integer, log_index integer, " +
  '"trader" VARCHAR, "notional" HUGEINT using compression uncompressed, ' +
  '"leverage" HUGEINT using compression uncompressed, ' +
  '"delta" HUGEINT using compression uncompressed, ' +
  '"big" HUGEINT using compression uncompressed, "long" BOOLEAN)';

/** An index of TRADES, made now or as before this change. */
async function makeIndex(file: string, made: "now" | "before"): Promise<void> {
  const store = await ActivityStore.open(file);
  try {
    if (made === "before") await store.rows(TABLE_BEFORE);
    await store.ensureSource(SOURCE);
    // Two ranges: the second appended to the table the first wrote.
    for (const half of [0, 1]) {
      const logs = new LogColumns(SOURCE.columns.length);
      TRADES.filter((_, i) => (i < TRADES.length / 2 ? 0 : 1) === half).forEach(
        (t, i) =>
          logs.push({
            blockNumber: t.block,
            blockTime: 1_000n + t.block,
            txHash: `0x${t.block.toString(16).padStart(64, "0")}`,
            txIndex: 0,
            logIndex: i % 4,
            values: [t.trader, t.notional, t.leverage, t.delta, t.big, t.long],
          }),
      );
      await store.begin();
      await store.storeRange(
        [SOURCE],
        half === 0 ? 15n : 40n,
        new Map([[SOURCE.id, logs]]),
        [],
      );
      await store.commit();
    }
  } finally {
    store.close();
  }
}

/** Each parameter's type as the index's table holds it. */
async function tableTypes(file: string): Promise<Record<string, string>> {
  const store = await ActivityStore.open(file);
  try {
    const rows = await store.rows(
      "select column_name, data_type from duckdb_columns() where table_name = $1",
      [logTable(SOURCE)],
    );
    return Object.fromEntries(rows.map(([name, type]) => [name, type]));
  } finally {
    store.close();
  }
}

describe("integer parameters stored as narrow as their Solidity type", () => {
  let dir: string;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-stored-"));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("stores an integer that fits 64 bits as BIGINT, a wider one as HUGEINT", () => {
    const cases: [string, "HUGEINT" | "VARCHAR" | "BOOLEAN", string][] = [
      ["uint8", "HUGEINT", "BIGINT"],
      ["uint56", "HUGEINT", "BIGINT"],
      ["uint64", "HUGEINT", "HUGEINT"],
      ["int8", "HUGEINT", "BIGINT"],
      ["int64", "HUGEINT", "BIGINT"],
      ["int72", "HUGEINT", "HUGEINT"],
      ["uint256", "HUGEINT", "HUGEINT"],
      ["uint", "HUGEINT", "HUGEINT"],
      ["int", "HUGEINT", "HUGEINT"],
      ["address", "VARCHAR", "VARCHAR"],
      ["bool", "BOOLEAN", "BOOLEAN"],
    ];
    for (const [solidity, sql, stored] of cases)
      expect(storedType({ solidity, sql }), solidity).to.equal(stored);
  });

  it("refuses a table with a column no version writes, naming the file and the table, and appends nothing", async () => {
    const file = path.join(dir, "foreign", "chain-1.duckdb");
    const store = await ActivityStore.open(file);
    try {
      await store.rows(
        TABLE_BEFORE.replace('"leverage" HUGEINT', '"leverage" DOUBLE'),
      );
      const error = await refusal(
        store.ensureSource(SOURCE),
        ERRORS.INDEXER.INDEX.INDEX_UNOPENABLE,
      );
      expect(error.params.file).to.equal(file);
      expect(String(error.params.reason)).to.include(
        `${logTable(SOURCE)} has a column of type DOUBLE`,
      );
      expect(
        await store.rows(`select count(*) from ${logTable(SOURCE)}`),
      ).to.deep.equal([["0"]]);
    } finally {
      store.close();
    }
  });

  it("gives the same scores and digest from an index made now and one made before, each kept as it was made", async () => {
    const now = path.join(dir, "now", "chain-1.duckdb");
    const before = path.join(dir, "before", "chain-1.duckdb");
    await makeIndex(now, "now");
    await makeIndex(before, "before");
    expect(await tableTypes(now)).to.include({
      notional: "HUGEINT",
      leverage: "BIGINT",
      delta: "BIGINT",
      big: "HUGEINT",
      long: "BOOLEAN",
    });
    expect(await tableTypes(before)).to.include({
      notional: "HUGEINT",
      leverage: "HUGEINT",
      delta: "HUGEINT",
      big: "HUGEINT",
    });
    const fromNow = await computeStage(now, POLICY, WINDOW, BLOCKS);
    const fromBefore = await computeStage(before, POLICY, WINDOW, BLOCKS);
    expect(
      new Map(unpackRows(fromNow.rows).map((row) => [row.address, row.score])),
    ).to.deep.equal(expectedScores());
    expect(fromNow.rows).to.deep.equal(fromBefore.rows);
    expect(fromNow.sources).to.deep.equal(fromBefore.sources);
    expect(fromNow.sources[0]?.logs).to.equal(TRADES.length);
  });
});
