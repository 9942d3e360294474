import type { DuckDBConnection } from "@duckdb/node-api";

import { RunningDigest } from "./running-digest.js";
import { digestRows } from "./source-digest.js";
import type { PolicySource } from "../policy/parse.js";
import { textOf } from "../policy/place.js";

/**
 * Each source's digest as the index was written: after every commit that
 * added rows, the state of its digest over all its rows through the
 * commit's last block. A stage's digest goes on from the last state at or
 * before its last block, so it costs the rows after that state, not every
 * row since the source's first block. Kept in the index's transaction with
 * the rows it covers; forgotten with them on a reorganization.
 */
export const DIGEST_STATES_TABLE =
  "create table if not exists digest_states (source_id varchar, " +
  "through_block bigint, logs bigint, state varchar, " +
  "primary key (source_id, through_block))";

/** A source's digest after all its rows through `through`. */
export interface DigestState {
  through: bigint;
  logs: number;
  state: string;
}

/**
 * The source's last digest state at or before block `atOrBefore`, from the
 * index as `connection` sees it (`schema`: `main` in the index's own
 * connection, `store.main` in an engine that attached it); undefined when
 * there is none (an index written before digest states were kept, or no
 * state that early).
 */
export async function digestStateAt(
  connection: DuckDBConnection,
  schema: string,
  sourceId: string,
  atOrBefore: bigint,
): Promise<DigestState | undefined> {
  const database = schema.split(".")[0] ?? schema;
  const exists = await connection.runAndReadAll(
    "select count(*)::INTEGER from duckdb_tables() where database_name = " +
      (schema.includes(".") ? "$1" : "current_database()") +
      " and table_name = 'digest_states'",
    schema.includes(".") ? [database] : [],
  );
  if (Number(exists.getRowsJson()[0]?.[0]) === 0) return undefined;
  const reader = await connection.runAndReadAll(
    `select through_block::VARCHAR, logs::VARCHAR, state from ${schema}.digest_states ` +
      "where source_id = $1 and through_block <= $2 order by through_block desc limit 1",
    [sourceId, Number(atOrBefore)],
  );
  const row = reader.getRowsJson()[0];
  if (row === undefined) return undefined;
  return {
    through: BigInt(textOf(row[0])),
    logs: Number(row[1]),
    state: textOf(row[2]),
  };
}

/**
 * Brings the source's digest state up to block `through`, inside the index's
 * open transaction: the rows after its last state are hashed (every row, the
 * first time an index written before states were kept is opened) and the
 * new state recorded. Nothing is recorded when no row was added: the last
 * state (or, before the first row, none) still covers every row through
 * `through`.
 */
export async function advanceDigest(
  connection: DuckDBConnection,
  source: Pick<PolicySource, "id" | "columns">,
  table: string,
  through: bigint,
): Promise<void> {
  const last = await digestStateAt(connection, "main", source.id, through);
  if (last?.through === through) return;
  const digest =
    last === undefined
      ? RunningDigest.start()
      : RunningDigest.resume(last.state, last.logs);
  const rows = await digestRows(
    connection,
    {
      name: source.id,
      table,
      parameters: source.columns.map((c) => c.name),
      after: last?.through,
      through,
    },
    digest,
  );
  if (rows === 0) return;
  await connection.run("insert into digest_states values ($1, $2, $3, $4)", [
    source.id,
    Number(through),
    digest.rows,
    digest.state(),
  ]);
}
