import { existsSync } from "node:fs";
import { rename } from "node:fs/promises";

import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";

/**
 * The layout of the index this version writes and reads. Format 1 (no `meta`
 * table) stored no `tx_index` and the node's own `logIndex`, which minievm
 * numbers within the transaction through v1.2 and within the block from v1.3:
 * its rows cannot be put in chain order, nor compared with rows indexed from
 * an upgraded node. Format 2 stores `tx_index`, and `log_index` within the
 * transaction whichever way the node numbers. Format 3 may store an integer
 * parameter that fits 64 bits as BIGINT (see `storedType`), which a version
 * that reads format 2 would append HUGEINT to and hand its policies
 * unconverted: a format-2 index opens here and is marked 3 (its tables stay
 * as they were made), and such a version then refuses it by name.
 */
const INDEX_FORMAT = 3;
/** Formats opened and marked INDEX_FORMAT: their rows are this version's. */
const UPGRADED_FORMATS = new Set(["2"]);

/** What `scores:index` is run with to set an index aside, when the caller cannot say. */
export const REBUILD_COMMAND =
  "npx hardhat scores:index --network <name> --policy <policy file or folder> --rebuild";

/**
 * Records the format in a fresh index (its first table, so an index cut short
 * while being created is never taken for an old one), marks one of a format
 * this version upgrades in place, or refuses an index of another format: its
 * rows and this version's must never mix.
 */
export async function checkFormat(
  connection: DuckDBConnection,
  file: string,
  rebuild: string,
): Promise<void> {
  const found = await formatOf(connection);
  if (found === undefined) {
    await connection.run("begin transaction");
    try {
      await connection.run(
        "create table meta (key varchar primary key, value varchar)",
      );
      await connection.run("insert into meta values ('format', $1)", [
        String(INDEX_FORMAT),
      ]);
      await connection.run("commit");
    } catch (error) {
      await connection.run("rollback").catch(() => undefined);
      throw error;
    }
    return;
  }
  if (found === String(INDEX_FORMAT)) return;
  if (UPGRADED_FORMATS.has(found)) {
    await connection.run("update meta set value = $1 where key = 'format'", [
      String(INDEX_FORMAT),
    ]);
    return;
  }
  const aside = asideName(file, found);
  if (found === "1")
    throw new VipError(ERRORS.INDEXER.INDEX.INDEX_FORMAT_1, {
      file,
      rebuild,
      aside,
    });
  throw new VipError(ERRORS.INDEXER.INDEX.INDEX_FORMAT_OTHER, {
    file,
    found,
    format: INDEX_FORMAT,
    rebuild,
    aside,
  });
}

/**
 * The index's format: undefined for an empty database, "1" for one written
 * before formats were recorded (no `meta`, or a log table without
 * `tx_index`), "unknown" for a `meta` without one.
 */
async function formatOf(
  connection: DuckDBConnection,
): Promise<string | undefined> {
  const tables = (
    await connection.runAndReadAll(
      "select table_name from duckdb_tables() where database_name = current_database() and schema_name = 'main'",
    )
  )
    .getRowsJson()
    .map((row) => row[0]);
  if (tables.length === 0) return undefined;
  if (!tables.includes("meta")) return "1";
  const format = (
    await connection.runAndReadAll(
      "select value from meta where key = 'format'",
    )
  ).getRowsJson()[0]?.[0];
  const withoutTxIndex = (
    await connection.runAndReadAll(
      `select count(*)::INTEGER from duckdb_tables() t
         where t.database_name = current_database()
           and t.table_name like 'log\\_%' escape '\\'
           and not exists (select 1 from duckdb_columns() c
             where c.database_name = t.database_name
               and c.table_name = t.table_name and c.column_name = 'tx_index')`,
    )
  ).getRowsJson()[0]?.[0];
  if (Number(withoutTxIndex) > 0) return "1";
  // A meta table without a format was written by nothing this plugin knows.
  return typeof format === "string" ? format : "unknown";
}

/** Where an index of `format` is moved aside: `chain-<id>.format-<n>.duckdb`. */
function asideName(file: string, format: string): string {
  return file.replace(/(\.duckdb)?$/, `.format-${format}.duckdb`);
}

/**
 * Moves the index at `file` (and its write-ahead log, if any) aside to
 * `chain-<id>.format-<n>.duckdb`, so that the next run indexes afresh. Never
 * deletes: the node may have pruned blocks since the index was made, and then
 * the old file holds logs no node gives any more. Refused while another
 * command has the index open, or when the name aside is taken. Returns where
 * it went, or undefined when there was no index.
 */
export async function setAside(
  file: string,
): Promise<{ to: string; format: string } | undefined> {
  const wal = `${file}.wal`;
  if (!existsSync(file) && !existsSync(wal)) return undefined;
  const format = await readFormat(file);
  const to = asideName(file, format);
  for (const taken of [to, `${to}.wal`])
    if (existsSync(taken))
      throw new VipError(ERRORS.INDEXER.INDEX.ASIDE_TAKEN, { file, taken });
  if (existsSync(file)) await rename(file, to);
  if (existsSync(wal)) await rename(wal, `${to}.wal`);
  return { to, format };
}

/**
 * The format of the index in `file`, opened read-only (which also proves no
 * other command is writing it); "unreadable" when DuckDB cannot open it.
 */
async function readFormat(file: string): Promise<string> {
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(file, { access_mode: "READ_ONLY" });
  } catch (error) {
    // DuckDB says a lock is held only in its message.
    const reason = error instanceof Error ? error.message : String(error);
    if (/lock/i.test(reason))
      throw new VipError(ERRORS.INDEXER.INDEX.INDEX_IN_USE, { file });
    return "unreadable";
  }
  const connection = await instance.connect();
  try {
    return (await formatOf(connection)) ?? String(INDEX_FORMAT);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
