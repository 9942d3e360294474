import type { DuckDBConnection } from "@duckdb/node-api";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import type { RunningDigest } from "./running-digest.js";
import { CHAIN_ORDER, sourceColumns } from "../policy/engine-policy.js";
import { textOf } from "../policy/place.js";

/**
 * Rows the engine hashes and orders at once, unless one block holds more:
 * what bounds the digest's memory whatever the number of logs (a stage's
 * 10,000,000 rows ordered at once held some 2 GB). Slices of 60,000 rows,
 * four in flight, took a 10,000,000-row digest from 8.05 s to 5.5-5.8 s
 * and its process from 524-539 MB to 472-491 MB, against one slice of
 * 250,000 at a time (`docs/benchmarks.md`, issue 46's fourth step).
 */
export const SLICE_ROWS = 60_000;

/** The engine's connections a digest's slices are hashed on, one slice each. */
export type SliceConnections = [DuckDBConnection, ...DuckDBConnection[]];

/** The rows of a source's log table to hash: blocks (after, through]. */
export interface RowSpan {
  /** The source, as an error names it (its table in the policy). */
  name: string;
  /** The qualified table (`log_<id>`, or `store.main.log_<id>` from an engine). */
  table: string;
  /** The event's parameters, as their columns are named. */
  parameters: string[];
  /** The last block already in the digest; undefined: none yet. */
  after: bigint | undefined;
  through: bigint;
}

/**
 * Adds the rows of `span` to `digest`, in chain order (the digest counts
 * them). A row is hashed as it always was: each column as text
 * (DuckDB's VARCHAR cast) joined by "," (block_number, block_time, tx_hash,
 * tx_index, log_index, then the parameters as declared), SHA-256 in hex;
 * the digest hashes those, concatenated. The one definition every digest
 * uses, from the first row or from a kept state, so no two can hash a row
 * differently. The engine hashes a slice of whole blocks at a time, of about
 * `sliceRows` rows, one slice on each of `connections` at once: while this
 * process hashes one slice's hashes, the engine hashes and orders the next
 * ones (a slice's ordering runs on one thread: with one slice in flight, a
 * core waits).
 */
export async function digestRows(
  connections: Readonly<SliceConnections>,
  span: RowSpan,
  digest: RunningDigest,
  sliceRows = SLICE_ROWS,
): Promise<void> {
  const columns = sourceColumns({ columns: span.parameters })
    .map((c) => `${c}::VARCHAR`)
    .join(", ");
  const slices = await blockSlices(connections[0], span, sliceRows);
  const hashesOf = async (i: number) => {
    const { from, to } = slices[i] as { from: string; to: string };
    const connection = connections[i % connections.length] as DuckDBConnection;
    const reader = await connection.runAndReadAll(
      `select coalesce(string_agg(sha256(concat_ws(',', ${columns})), '' ` +
        `order by ${CHAIN_ORDER.join(", ")}), '') from ${span.table} ` +
        `where block_number between ${from} and ${to}`,
    );
    const hashes = reader.getRowsJson()[0]?.[0];
    if (typeof hashes !== "string")
      throw new VipError(ERRORS.SCORING.RUN.DIGEST_FAILED, {
        table: span.name,
      });
    return hashes;
  };
  // Slices asked for and not yet hashed here, in chain order.
  const pending: Promise<string>[] = [];
  let asked = 0;
  const askMore = () => {
    while (asked < slices.length && pending.length < connections.length)
      pending.push(hashesOf(asked++));
  };
  try {
    askMore();
    for (
      let next = pending.shift();
      next !== undefined;
      next = pending.shift()
    ) {
      const hashes = await next;
      askMore();
      digest.update(hashes);
    }
  } finally {
    // Left unread when one failed: their own failures are not the error.
    for (const left of pending) left.catch(() => undefined);
  }
}

/**
 * The span's blocks with rows cut into slices of about `sliceRows` rows: a
 * block starts a new slice once the rows before it fill the last one.
 */
async function blockSlices(
  connection: DuckDBConnection,
  { table, after, through }: RowSpan,
  sliceRows: number,
): Promise<{ from: string; to: string }[]> {
  const from = after === undefined ? "" : `block_number > ${after} and `;
  const reader = await connection.runAndReadAll(
    `select min(block_number)::VARCHAR, max(block_number)::VARCHAR from (` +
      `select block_number, (sum(rows) over (order by block_number) - rows) // ${sliceRows} as slice ` +
      `from (select block_number, count(*) as rows from ${table} ` +
      `where ${from}block_number <= ${through} group by block_number)` +
      `) group by slice order by slice`,
  );
  const [froms = [], tos = []] = reader.getColumnsJson();
  return froms.map((from, i) => ({ from: textOf(from), to: textOf(tos[i]) }));
}
