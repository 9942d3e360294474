import type { DuckDBConnection } from "@duckdb/node-api";

import { textOf } from "../policy/place.js";

/**
 * Each source's digest as computations reached it: after a stage's (or a
 * window's) digest, the state of its SHA-256 over all the source's rows
 * through that last block. A later digest goes on from the last state at or
 * before its own last block, so every row is hashed once: the next stage
 * pays its own rows, a live stage computed again pays the blocks since.
 * Forgotten with the rows on a reorganization. Not written while indexing:
 * hashing there took a second of the index's CPU per million logs, on the
 * cores the node needs.
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

/** A digest state to keep in the index, for the source it belongs to. */
export interface KeptDigestState extends DigestState {
  sourceId: string;
}

/**
 * The source's last digest state at or before block `atOrBefore`, from the
 * index an engine attached as `store`; undefined when there is none (an
 * index written before digest states were kept, or no state that early).
 */
export async function digestStateAt(
  connection: DuckDBConnection,
  sourceId: string,
  atOrBefore: bigint,
): Promise<DigestState | undefined> {
  const exists = await connection.runAndReadAll(
    "select count(*)::INTEGER from duckdb_tables() " +
      "where database_name = 'store' and table_name = 'digest_states'",
  );
  if (Number(exists.getRowsJson()[0]?.[0]) === 0) return undefined;
  const reader = await connection.runAndReadAll(
    "select through_block::VARCHAR, logs::VARCHAR, state from store.main.digest_states " +
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
