import { mkdir } from "node:fs/promises";
import path from "node:path";

import {
  BIGINT,
  type DuckDBAppender,
  type DuckDBConnection,
  DuckDBDataChunk,
  type DuckDBType,
  INTEGER,
  VARCHAR,
  DuckDBInstance,
} from "@duckdb/node-api";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import type { LogColumns } from "./decode.js";
import { DIGEST_STATES_TABLE, type KeptDigestState } from "./digest-states.js";
import { checkFormat, REBUILD_COMMAND } from "./index-format.js";
import { columnDefinition, storedParameterTypes } from "./stored-columns.js";
import { LOG_COLUMN_TYPES, LOG_COLUMNS } from "../policy/engine-policy.js";
import type { PolicySource } from "../policy/parse.js";

/** The columns every log table starts with, and their types. */
const LOG_TABLE_COLUMNS = LOG_COLUMNS.map(
  (name) => `${name} ${LOG_COLUMN_TYPES[name].toLowerCase()}`,
).join(", ");

/** A block the index relies on: its hash proves it was not replaced. */
export interface StoredBlock {
  number: bigint;
  hash: string;
  time: bigint;
}

/**
 * The embedded index of a rollup's logs: one DuckDB file per chain
 * (`vip-data/chain-<id>.duckdb`), of the format `meta` records. Per source, a
 * table of decoded logs (`log_<id>`: block_number, block_time, tx_hash,
 * tx_index, log_index within the transaction, then the event's parameters)
 * and a cursor (the first block not indexed yet); the blocks the logs are in
 * and each range's last block, with hashes. A range's logs, blocks
 * and cursor are written in one transaction: a kill at any moment leaves the
 * index as it was before the range or after it, never between.
 */
export class ActivityStore {
  /** Blocks and cursors of the open transaction, written at its commit. */
  #blocks = new Map<bigint, StoredBlock>();
  #cursors = new Map<string, bigint>();
  /** Each source's parameter columns' types, as its table has them. */
  #parameterTypes = new Map<string, DuckDBType[]>();
  /**
   * A transaction is open: DuckDB ends one whose commit fails, and refuses a
   * rollback then.
   */
  #open = false;

  readonly #instance: DuckDBInstance;

  private constructor(
    readonly file: string,
    instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
  ) {
    this.#instance = instance;
  }

  /**
   * Opens (or creates) the index in `file`. An index of another format is
   * refused, naming `rebuild`: the command that sets it aside.
   */
  static async open(
    file: string,
    {
      rebuild = REBUILD_COMMAND,
      memoryMb,
    }: {
      rebuild?: string;
      /**
       * The engine's memory limit: DuckDB keeps every block it wrote cached
       * up to it (by default 80% of the machine), so an index's memory
       * would grow with its size.
       */
      memoryMb?: number;
    } = {},
  ): Promise<ActivityStore> {
    await mkdir(path.dirname(file), { recursive: true });
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(file, {
        threads: "1",
        ...(memoryMb === undefined ? {} : { memory_limit: `${memoryMb}MB` }),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      // DuckDB says a lock is held only in its message.
      if (/lock/i.test(reason))
        throw new VipError(ERRORS.INDEXER.INDEX.INDEX_IN_USE, { file });
      throw new VipError(ERRORS.INDEXER.INDEX.INDEX_UNOPENABLE, {
        file,
        reason,
      });
    }
    const connection = await instance.connect();
    try {
      await checkFormat(connection, file, rebuild);
    } catch (error) {
      connection.closeSync();
      instance.closeSync();
      throw error;
    }
    await connection.run(
      "create table if not exists sources (id varchar primary key, address varchar, " +
        "event varchar, from_block bigint, next_block bigint)",
    );
    await connection.run(
      "create table if not exists blocks (number bigint primary key, hash varchar, time bigint)",
    );
    await connection.run(DIGEST_STATES_TABLE);
    return new ActivityStore(file, instance, connection);
  }

  close(): void {
    this.connection.closeSync();
    this.#instance.closeSync();
  }

  /** Creates a source's table and cursor the first time it is seen. */
  async ensureSource(source: PolicySource): Promise<void> {
    const columns = source.columns.map(columnDefinition).join(", ");
    await this.connection.run(
      `create table if not exists ${logTable(source)} (${LOG_TABLE_COLUMNS}` +
        `${columns === "" ? "" : ", " + columns})`,
    );
    this.#parameterTypes.set(
      source.id,
      await storedParameterTypes(
        this.connection,
        { file: this.file, table: logTable(source) },
        LOG_COLUMNS.length,
      ),
    );
    await this.connection.run(
      "insert into sources values ($1, $2, $3, $4, $4) on conflict do nothing",
      [
        source.id,
        source.address,
        source.event.format("full"),
        Number(source.fromBlock),
      ],
    );
  }

  /**
   * Keeps digest states a computation reached (see `digest-states.ts`); a
   * state already kept is left as it is.
   */
  async keepDigestStates(states: KeptDigestState[]): Promise<void> {
    for (const { sourceId, through, logs, state } of states)
      await this.connection.run(
        "insert into digest_states values ($1, $2, $3, $4) on conflict do nothing",
        [sourceId, Number(through), logs, state],
      );
  }

  /** The first block of `source` not indexed yet. */
  async nextBlock(source: PolicySource): Promise<bigint> {
    const rows = await this.rows(
      "select next_block from sources where id = $1",
      [source.id],
    );
    const value = rows[0]?.[0];
    if (value === undefined || value === null)
      throw new VipError(ERRORS.INDEXER.INDEX.SOURCE_NOT_IN_INDEX, {
        table: source.table,
      });
    return BigInt(value);
  }

  async block(number: bigint): Promise<StoredBlock | undefined> {
    const rows = await this.rows(
      "select hash, time from blocks where number = $1",
      [Number(number)],
    );
    const row = rows[0];
    return row === undefined
      ? undefined
      : { number, hash: String(row[0]), time: BigInt(row[1] ?? 0) };
  }

  /** Stored blocks at or below `number`, newest first. */
  async blocksDownFrom(number: bigint): Promise<StoredBlock[]> {
    const rows = await this.rows(
      "select number, hash, time from blocks where number <= $1 order by number desc",
      [Number(number)],
    );
    return rows.map((r) => ({
      number: BigInt(r[0] ?? 0),
      hash: String(r[1]),
      time: BigInt(r[2] ?? 0),
    }));
  }

  /**
   * Opens a transaction: what is stored until `commit` is kept whole or not
   * at all, cursors included, so a kill at any moment loses only work that
   * is done again on the next run.
   */
  async begin(): Promise<void> {
    await this.connection.run("begin transaction");
    this.#open = true;
  }

  /**
   * Writes the blocks and cursors of the ranges stored since `begin`, then
   * commits: one statement each per commit, not per range (DuckDB pays per
   * statement, not per row).
   */
  async commit(): Promise<void> {
    const blocks = [...this.#blocks.values()];
    for (let i = 0; i < blocks.length; i += BLOCKS_PER_INSERT) {
      const part = blocks.slice(i, i + BLOCKS_PER_INSERT);
      await this.connection.run(
        `insert into blocks values ${part
          .map((_, k) => `($${3 * k + 1}, $${3 * k + 2}, $${3 * k + 3})`)
          .join(", ")} on conflict do nothing`,
        part.flatMap((block) => [
          Number(block.number),
          block.hash,
          Number(block.time),
        ]),
      );
    }
    for (const [id, next] of this.#cursors)
      await this.connection.run(
        "update sources set next_block = $1 where id = $2",
        [Number(next), id],
      );
    this.#blocks.clear();
    this.#cursors.clear();
    this.#open = false;
    await this.connection.run("commit");
  }

  /**
   * Writes what is committed into the database file, so that it need not be
   * written when the index closes (or replayed from the log when it opens).
   */
  async checkpoint(): Promise<void> {
    await this.connection.run("checkpoint");
  }

  /** Forgets what was stored since `begin`, if a transaction is open. */
  async rollback(): Promise<void> {
    this.#blocks.clear();
    this.#cursors.clear();
    if (!this.#open) return;
    this.#open = false;
    await this.connection.run("rollback");
  }

  /**
   * Records a range [from, to] of the sources in `group`, inside the open
   * transaction: their logs now, the blocks they are in, the range's ends and
   * the cursors past `to` at the commit.
   */
  async storeRange(
    group: PolicySource[],
    to: bigint,
    logs: Map<string, LogColumns>,
    blocks: StoredBlock[],
  ): Promise<void> {
    for (const source of group) {
      const columns = logs.get(source.id);
      if (columns === undefined || columns.length === 0) continue;
      const types = this.#parameterTypes.get(source.id);
      if (types === undefined)
        throw new Error(`source ${source.id} stored before ensureSource`);
      const appender = await this.connection.createAppender(logTable(source));
      appendLogs(appender, types, columns);
      appender.closeSync();
    }
    for (const block of blocks) this.#blocks.set(block.number, block);
    for (const source of group) this.#cursors.set(source.id, to + 1n);
  }

  /**
   * Forgets everything after block `keep` (its hash on the node changed: a
   * reorganization), so those blocks are indexed again.
   */
  async rewind(sources: PolicySource[], keep: bigint): Promise<void> {
    await this.begin();
    try {
      for (const source of sources)
        await this.connection.run(
          `delete from ${logTable(source)} where block_number > $1`,
          [Number(keep)],
        );
      await this.connection.run("delete from blocks where number > $1", [
        Number(keep),
      ]);
      await this.connection.run(
        "delete from digest_states where through_block > $1",
        [Number(keep)],
      );
      await this.connection.run(
        "update sources set next_block = greatest(from_block, least(next_block, $1))",
        [Number(keep + 1n)],
      );
      await this.commit();
    } catch (error) {
      await this.rollback();
      throw error;
    }
  }

  async rows(
    sql: string,
    values: (string | number)[] = [],
  ): Promise<(string | number | boolean | null)[][]> {
    const reader = await this.connection.runAndReadAll(sql, values);
    return reader.getRowsJson() as (string | number | boolean | null)[][];
  }
}

/** The table that holds a source's logs. */
export function logTable(source: { id: string }): string {
  return `log_${source.id}`;
}

/** Rows a DuckDB data chunk holds (its vector size). */
const CHUNK_ROWS = 2048;
/** Blocks per insert statement (three parameters each). */
const BLOCKS_PER_INSERT = 1000;

/**
 * Appends a source's rows a data chunk at a time, a column array each: a
 * third less work than a call per value. Block numbers and times are BIGINT,
 * the transaction's and the log's indices INTEGER, the parameters as their
 * table stores them (`parameterTypes`).
 */
function appendLogs(
  appender: DuckDBAppender,
  parameterTypes: DuckDBType[],
  columns: LogColumns,
): void {
  const types = (
    [BIGINT, BIGINT, VARCHAR, INTEGER, INTEGER] as DuckDBType[]
  ).concat(parameterTypes);
  const all = [
    columns.blockNumber,
    columns.blockTime,
    columns.txHash,
    columns.txIndex,
    columns.logIndex,
    ...columns.values,
  ];
  for (let start = 0; start < columns.length; start += CHUNK_ROWS) {
    const end = Math.min(start + CHUNK_ROWS, columns.length);
    const chunk = DuckDBDataChunk.create(types, end - start);
    chunk.setColumns(all.map((column) => column.slice(start, end)));
    appender.appendDataChunk(chunk);
  }
}
