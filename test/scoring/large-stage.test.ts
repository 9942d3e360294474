import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { DuckDBInstance } from "@duckdb/node-api";
import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { LogColumns } from "../../tasks/indexer/decode.js";
import { ActivityStore, logTable } from "../../tasks/indexer/store.js";
import { enginePolicy, parsePolicy } from "../../tasks/policy/parse.js";
import { digestSources } from "../../tasks/scoring/digest.js";
import {
  checkedAnswer,
  packedInEngine,
} from "../../tasks/scoring/policy-answer.js";
import { Deadline, PolicySandbox } from "../../tasks/scoring/sandbox.js";
import {
  checkedRows,
  packRows,
  type PackedRows,
  unpackRows,
} from "../../tasks/scoring/score-rows.js";
import { refusal } from "../helpers/failure.js";
import { referenceDigest } from "../helpers/reference-digest.js";

// What keeps a large stage's cost from growing with its logs (the digest a
// slice of blocks at a time, the answer checked and ordered in the engine,
// the index's wide integers stored unpacked, narrow ones as BIGINT) must give exactly what the plain way
// gives: these tests compute both and compare.
const CONTRACT = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const POLICY = parsePolicy(
  "large.sql",
  `-- @policy large-test
-- @from-stage 1
-- @source trades ${CONTRACT} event Trade(address indexed trader, uint256 notional, uint16 leverage)
select trader as address, sum(notional) as score from trades group by trader
`,
);
const [SOURCE] = POLICY.sources;
const BOUNDS = { timeoutSeconds: 60, memoryMb: 256 };

/** Logs per block, uneven: empty blocks, one log, and blocks above a slice. */
const LOGS_PER_BLOCK = [3, 0, 1, 17, 2, 0, 9, 40, 1, 5, 12, 0, 7];

describe("a large stage's cost, and the same answer as the plain way", () => {
  let dir: string;
  let file: string;

  before(async () => {
    if (SOURCE === undefined) throw new Error("no source parsed");
    dir = await mkdtemp(path.join(tmpdir(), "vip-large-"));
    file = path.join(dir, "chain-1.duckdb");
    const store = await ActivityStore.open(file);
    await store.ensureSource(SOURCE);
    const logs = new LogColumns(3);
    LOGS_PER_BLOCK.forEach((count, block) => {
      for (let log = 0; log < count; log++)
        logs.push({
          blockNumber: BigInt(block),
          blockTime: 1_000n + BigInt(block),
          txHash: `0x${(block * 100 + (log >> 2)).toString(16).padStart(64, "0")}`,
          txIndex: log >> 2,
          logIndex: log & 3,
          values: [
            `0x${(1 + (log % 5)).toString(16).padStart(40, "0")}`,
            10n ** 30n + BigInt(block * log),
            BigInt(log % 50),
          ],
        });
    });
    await store.begin();
    await store.storeRange([SOURCE], 20n, new Map([[SOURCE.id, logs]]), []);
    await store.commit();
    await store.checkpoint();
    store.close();
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("stores a wide integer parameter unpacked (HUGEINT bit-packing reads some 60 times slower), one that fits 64 bits as BIGINT", async () => {
    const instance = await DuckDBInstance.create(file, {
      access_mode: "READ_ONLY",
    });
    const connection = await instance.connect();
    try {
      const reader = await connection.runAndReadAll(
        `select column_name, list(distinct segment_type order by segment_type), ` +
          `list(distinct compression order by compression) ` +
          `from pragma_storage_info('${logTable(SOURCE ?? { id: "" })}') ` +
          `where column_name in ('notional', 'leverage') and segment_type <> 'VALIDITY' ` +
          `group by column_name order by column_name`,
      );
      const [leverage, notional] = reader.getRowsJson();
      expect(leverage?.slice(0, 2)).to.deep.equal(["leverage", ["BIGINT"]]);
      expect(notional).to.deep.equal([
        "notional",
        ["HUGEINT"],
        ["Uncompressed"],
      ]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });

  it("digests slices of blocks, several at once, into the README's one concatenation, whatever the slice", async () => {
    const expected = await oneConcatenation(file, 12n);
    expect(expected.logs).to.equal(97);
    for (const sliceRows of [1, 4, 10, 41, 1_000])
      for (const inFlight of [1, 2, 3, 4]) {
        const {
          sources: [digest],
        } = await digestSources(file, [engineSource()], {
          last: 12n,
          tempDir: dir,
          sliceRows,
          inFlight,
        });
        expect(
          digest,
          `slices of ${sliceRows} rows, ${inFlight} at once`,
        ).to.include(expected);
      }
    const {
      sources: [short],
    } = await digestSources(file, [engineSource()], {
      last: 6n,
      tempDir: dir,
      sliceRows: 4,
    });
    expect(short).to.include(await oneConcatenation(file, 6n));
  });

  it("checks and orders a plainly good answer in the engine: the rows the row-by-row check gives", async () => {
    const upper = `0x${"AbCdEf0123".repeat(4)}`;
    const rows = [
      `('0x${"9".repeat(40)}', 18446744073709551615::UBIGINT)`,
      `('${upper}', 0)`,
      `('0x${"0".repeat(39)}1', 7)`,
      `('0x${"5".repeat(40)}', 42)`,
    ];
    const sql = `select address, score from (values ${rows.join(", ")}) t(address, score)`;
    const { engine, plain } = await bothWays(sql);
    expect(unpackRows(engine)).to.deep.equal(unpackRows(plain));
    expect(unpackRows(engine).map((row) => row.address)).to.deep.equal([
      `0x${"0".repeat(39)}1`,
      `0x${"5".repeat(40)}`,
      `0x${"9".repeat(40)}`,
      upper.toLowerCase(),
    ]);
    const decimals = await bothWays(
      `select address, score from (values ('0x${"1".repeat(40)}', 12.75::DECIMAL(10,2)), ` +
        `('0x${"2".repeat(40)}', -0.00::DECIMAL(10,2)), ('0x${"3".repeat(40)}', 0.99::DECIMAL(10,2))) t(address, score)`,
    );
    expect(unpackRows(decimals.engine).map((row) => row.score)).to.deep.equal([
      12n,
      0n,
      0n,
    ]);
    expect(unpackRows(decimals.engine)).to.deep.equal(
      unpackRows(decimals.plain),
    );
  });

  it("hands a plainly good answer over a chunk at a time: 5,000 rows out of order, the rows the row-by-row check gives", async () => {
    // 7919 is invertible modulo the prime 100,003: 5,000 distinct addresses.
    const { engine, plain } = await bothWays(
      `select '0x' || printf('%040x', (i * 7919) % 100003 + 1) as address, ` +
        `(5000 - i)::UBIGINT * 4294967311 as score from range(5000) t(i)`,
    );
    expect(engine.scores.length).to.equal(5000);
    expect(unpackRows(engine)).to.deep.equal(unpackRows(plain));
    const addresses = unpackRows(engine).map((row) => row.address);
    expect(addresses).to.deep.equal([...addresses].sort());
  });

  it("packs in the engine a plainly good answer spread over every group of addresses: 20,000 addresses, every one in its place", async () => {
    // Addresses from hashes, as real ones spread: all 256 groups of their
    // first two digits, each joined in order in the engine.
    const sql =
      `select '0x' || substr(md5(i::VARCHAR), 1, 32) || printf('%08x', i) as address, ` +
      `(i * 1000003) % 18446744073709551557::UBIGINT as score from range(20000) t(i)`;
    const sandbox = await PolicySandbox.open(file, BOUNDS, { tempDir: dir });
    try {
      const [addresses = [], scores = []] = (
        await sandbox.connection.runAndReadAll(sql)
      ).getColumnsJson();
      await sandbox.connection.run(`create temp table answer as ${sql}`);
      const packed = await packedInEngine(
        sandbox,
        20_000,
        new Deadline(60, POLICY.file),
      );
      expect(packed, "the engine's packing fell back").to.not.equal(undefined);
      expect(unpackRows(packed as PackedRows)).to.deep.equal(
        checkedRows(POLICY.file, "stage 1", { addresses, scores }),
      );
    } finally {
      sandbox.close();
    }
  });

  it("checks row by row what is not plainly good: a padded address is taken, a score past uint64 named", async () => {
    const padded = await bothWays(
      `select address, score from (values (' 0x${"7".repeat(40)}\t', 3), ('0x${"1".repeat(40)}', 4)) t(address, score)`,
    );
    expect(unpackRows(padded.engine)).to.deep.equal([
      { address: `0x${"1".repeat(40)}`, score: 4n },
      { address: `0x${"7".repeat(40)}`, score: 3n },
    ]);
    const tooLarge = await refusal(
      bothWays(
        `select address, score from (values ('0x${"1".repeat(40)}', 18446744073709551616::HUGEINT)) t(address, score)`,
      ),
      ERRORS.SCORING.RESULTS.SCORES_INVALID,
    );
    expect(tooLarge.params.problems).to.include(
      "above the uint64 maximum 18446744073709551615",
    );
    const twice = await refusal(
      bothWays(
        `select address, score from (values ('0x${"A".repeat(40)}', 1), ('0x${"a".repeat(40)}', 2)) t(address, score)`,
      ),
      ERRORS.SCORING.RESULTS.SCORES_INVALID,
    );
    expect(twice.params.problems).to.include("is listed twice");
  });

  /** The answer to `sql` checked in the engine, and row by row in this process. */
  async function bothWays(
    sql: string,
  ): Promise<{ engine: PackedRows; plain: PackedRows }> {
    const sandbox = await PolicySandbox.open(file, BOUNDS, { tempDir: dir });
    try {
      const [addresses = [], scores = []] = (
        await sandbox.connection.runAndReadAll(sql)
      ).getColumnsJson();
      const engine = await checkedAnswer(sandbox, enginePolicy(POLICY), {
        sql,
        label: "stage 1",
        deadline: new Deadline(60, POLICY.file),
      });
      const plain = packRows(
        checkedRows(POLICY.file, "stage 1", { addresses, scores }),
      );
      return { engine, plain };
    } finally {
      sandbox.close();
    }
  }
});

function engineSource() {
  const [source] = enginePolicy(POLICY).sources;
  if (source === undefined) throw new Error("no source");
  return source;
}

/** The README's definition in one query (see `referenceDigest`). */
function oneConcatenation(
  file: string,
  last: bigint,
): Promise<{ logs: number; sha256: string }> {
  return referenceDigest(
    file,
    logTable(SOURCE ?? { id: "" }),
    ["trader", "notional", "leverage"],
    last,
  );
}
