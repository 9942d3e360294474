import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { DuckDBInstance } from "@duckdb/node-api";
import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { isVipError } from "../../tasks/errors.js";
import { setAside } from "../../tasks/indexer/index-format.js";
import { ActivityStore } from "../../tasks/indexer/store.js";
import { queryIndex } from "../helpers/index-query.js";

/**
 * Writes a database at `file` with `statements`, leaving what they wrote in
 * its write-ahead log (`<file>.wal`) when `wal` is set, as a killed process
 * leaves it.
 */
async function database(
  file: string,
  statements: string[],
  { wal = false } = {},
): Promise<void> {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  if (wal) {
    await connection.run("pragma disable_checkpoint_on_shutdown");
    await connection.run("set checkpoint_threshold = '1TB'");
  }
  for (const sql of statements) await connection.run(sql);
  connection.closeSync();
  instance.closeSync();
}

/** An index as format 1 wrote it: no meta table, no tx_index. */
const FORMAT_1 = [
  "create table sources (id varchar primary key, address varchar, event varchar, from_block bigint, next_block bigint)",
  "create table blocks (number bigint primary key, hash varchar, time bigint)",
  "create table log_abc (block_number bigint, block_time bigint, tx_hash varchar, log_index integer, trader varchar)",
  "insert into log_abc values (5, 100, '0xaa', 3, '0x01')",
];

describe("the index's format: recorded, an older one refused and set aside, never deleted", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-format-"));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  /** The error opening `file` fails with ("opened" when it opens). */
  const refusal = async (file: string, rebuild?: string): Promise<unknown> =>
    ActivityStore.open(file, rebuild === undefined ? {} : { rebuild }).then(
      (store) => {
        store.close();
        return "opened";
      },
      (error: unknown) => error,
    );

  it("records format 3 in a fresh index, and opens it again", async () => {
    const file = path.join(dir, "chain-7.duckdb");
    (await ActivityStore.open(file)).close();
    (await ActivityStore.open(file)).close();
    expect(
      await queryIndex(file, "select key, value from meta order by key"),
    ).to.deep.equal([["format", "3"]]);
  });

  it("opens an index of format 2 and marks it 3, its log tables and rows as they were", async () => {
    const file = path.join(dir, "chain-10.duckdb");
    await database(file, [
      "create table meta (key varchar primary key, value varchar)",
      "insert into meta values ('format', '2')",
      "create table log_abc (block_number bigint, block_time bigint, tx_hash varchar, " +
        "tx_index integer, log_index integer, amount hugeint)",
      "insert into log_abc values (1, 10, '0xaa', 0, 0, 7)",
    ]);
    (await ActivityStore.open(file)).close();
    expect(
      await queryIndex(file, "select key, value from meta order by key"),
    ).to.deep.equal([["format", "3"]]);
    expect(
      await queryIndex(
        file,
        "select data_type from duckdb_columns() where table_name = 'log_abc' and column_name = 'amount'",
      ),
    ).to.deep.equal([["HUGEINT"]]);
    expect(
      await queryIndex(file, "select amount::VARCHAR from log_abc"),
    ).to.deep.equal([["7"]]);
  });

  it("refuses an index of format 1 (no meta, log tables without tx_index), saying what to run, and leaves it as it was", async () => {
    const file = path.join(dir, "chain-7.duckdb");
    await database(file, FORMAT_1);
    const error = await refusal(
      file,
      "npx hardhat scores:index --network rollup --policy p.sql --data-dir d --rebuild",
    );
    expect(
      isVipError(error, ERRORS.INDEXER.INDEX.INDEX_FORMAT_1) && error.params,
      String(error),
    ).to.deep.equal({
      file,
      rebuild:
        "npx hardhat scores:index --network rollup --policy p.sql --data-dir d --rebuild",
      aside: path.join(dir, "chain-7.format-1.duckdb"),
    });
    // Without the caller's command, the command with placeholders.
    const placeholders = await refusal(file);
    expect(
      isVipError(placeholders, ERRORS.INDEXER.INDEX.INDEX_FORMAT_1) &&
        placeholders.params.rebuild,
      String(placeholders),
    ).to.include(
      "npx hardhat scores:index --network <name> --policy <policy file or folder> --rebuild",
    );
    expect(
      await queryIndex(
        file,
        "select table_name from duckdb_tables() order by 1",
      ),
    ).to.deep.equal([["blocks"], ["log_abc"], ["sources"]]);
  });

  it("refuses a meta that says format 2 over a log table without tx_index, and a format it does not know", async () => {
    const meta = [
      "create table meta (key varchar primary key, value varchar)",
      "insert into meta values ('format', '2')",
    ];
    const mixed = path.join(dir, "chain-8.duckdb");
    await database(mixed, [...meta, ...FORMAT_1]);
    const format1 = await refusal(mixed);
    expect(
      isVipError(format1, ERRORS.INDEXER.INDEX.INDEX_FORMAT_1) &&
        format1.params.file,
      String(format1),
    ).to.equal(mixed);
    const newer = path.join(dir, "chain-9.duckdb");
    await database(newer, [
      meta[0] ?? "",
      "insert into meta values ('format', '4')",
    ]);
    const other = await refusal(newer);
    expect(
      isVipError(other, ERRORS.INDEXER.INDEX.INDEX_FORMAT_OTHER) &&
        other.params,
      String(other),
    ).to.include({ file: newer, found: "4", format: 3 });
  });

  it("--rebuild moves the index and its write-ahead log aside to chain-<id>.format-1.duckdb, intact, and a fresh index opens in its place", async () => {
    const file = path.join(dir, "chain-7.duckdb");
    await database(file, FORMAT_1, { wal: true });
    expect(existsSync(`${file}.wal`)).to.equal(true);
    const aside = await setAside(file);
    const to = path.join(dir, "chain-7.format-1.duckdb");
    expect(aside).to.deep.equal({ to, format: "1" });
    expect(existsSync(file)).to.equal(false);
    expect(existsSync(`${file}.wal`)).to.equal(false);
    expect(existsSync(`${to}.wal`)).to.equal(true);
    // The old rows, written only to the log, are still there.
    expect(
      await queryIndex(to, "select block_number, log_index from log_abc"),
    ).to.deep.equal([["5", 3]]);
    const store = await ActivityStore.open(file);
    store.close();
    expect(await queryIndex(file, "select value from meta")).to.deep.equal([
      ["3"],
    ]);
  });

  it("--rebuild refuses when the name aside is taken, deleting nothing; with no index it has nothing to move", async () => {
    const file = path.join(dir, "chain-7.duckdb");
    await database(file, FORMAT_1);
    await database(path.join(dir, "chain-7.format-1.duckdb"), [
      "create table x (a integer)",
    ]);
    const taken = await setAside(file).catch((e: unknown) => e);
    expect(
      isVipError(taken, ERRORS.INDEXER.INDEX.ASIDE_TAKEN) && taken.params,
      String(taken),
    ).to.deep.equal({
      file,
      taken: path.join(dir, "chain-7.format-1.duckdb"),
    });
    expect(
      await queryIndex(file, "select count(*)::INTEGER from log_abc"),
    ).to.deep.equal([[1]]);
    expect(await setAside(path.join(dir, "chain-99.duckdb"))).to.equal(
      undefined,
    );
  });
});
