import { createHash } from "node:crypto";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { PolicySandbox } from "./sandbox.js";
import { logTable } from "../indexer/store.js";
import {
  CHAIN_ORDER,
  type EngineSource,
  sourceColumns,
} from "../policy/engine-policy.js";
import { textOf } from "../policy/place.js";

export interface SourceDigest {
  table: string;
  address: string;
  event: string;
  logs: number;
  /** sha256 of the rows up to the stage's last block, in chain order. */
  sha256: string;
}

/**
 * Rows the engine hashes and orders at once, unless one block holds more:
 * what bounds the digest's memory whatever the number of logs (a stage's
 * 10,000,000 rows ordered at once held some 2 GB).
 */
const SLICE_ROWS = 250_000;
/**
 * The digest's engine's buffers, in MB: a slice and the pages of the index
 * it reads, which the engine would otherwise keep cached up to its limit.
 */
const DIGEST_MEMORY_MB = 128;

/** A run of whole blocks, in chain order. */
interface Slice {
  from: string;
  to: string;
}

/**
 * The digest of each of `sources`' rows up to block `last`, in an engine of
 * its own with a small memory bound, closed when done: what it reads of the
 * index is never cached beside the policy's own (which has let go of it by
 * then, see `checkedAnswer`).
 */
export async function digestSources(
  indexFile: string,
  sources: EngineSource[],
  {
    last,
    tempDir,
    sliceRows = SLICE_ROWS,
  }: { last: bigint; tempDir: string; sliceRows?: number },
): Promise<SourceDigest[]> {
  const sandbox = await PolicySandbox.open(
    indexFile,
    // No deadline: the digest is this tool's own query, not the policy's.
    { timeoutSeconds: 0, memoryMb: DIGEST_MEMORY_MB },
    { tempDir },
  );
  try {
    const digests: SourceDigest[] = [];
    for (const source of sources)
      digests.push(await digestSource(sandbox, source, { last, sliceRows }));
    return digests;
  } finally {
    sandbox.close();
  }
}

/**
 * A source's rows up to the stage's last block, hashed: each row's columns
 * as text joined by "," (block_number, block_time, tx_hash, tx_index,
 * log_index, then the parameters as declared) is hashed with SHA-256, and
 * the row hashes, in hex and chain order (block_number, tx_index,
 * log_index), are concatenated and hashed again. What a challenger
 * compares; the README states it, so it can be recomputed without this tool.
 *
 * The engine hashes the rows and orders them a slice of whole blocks at a
 * time, and this process hashes the slices' concatenations in block order:
 * the same bytes as one concatenation, in memory that does not grow with
 * the logs.
 */
async function digestSource(
  sandbox: PolicySandbox,
  source: EngineSource,
  { last, sliceRows }: { last: bigint; sliceRows: number },
): Promise<SourceDigest> {
  const columns = sourceColumns(source)
    .map((c) => `${c}::VARCHAR`)
    .join(", ");
  const table = `store.main.${logTable(source)}`;
  const hash = createHash("sha256");
  let logs = 0;
  const slices = await blockSlices(sandbox, table, { last, sliceRows });
  for (const { from, to } of slices) {
    const reader = await sandbox.connection.runAndReadAll(
      `select count(*)::BIGINT, coalesce(string_agg(sha256(concat_ws(',', ${columns})), '' ` +
        `order by ${CHAIN_ORDER.join(", ")}), '') from ${table} ` +
        `where block_number between ${from} and ${to}`,
    );
    const [count, hashes] = reader.getRowsJson()[0] ?? [];
    if (typeof hashes !== "string")
      throw new VipError(ERRORS.SCORING.RUN.DIGEST_FAILED, {
        table: source.table,
      });
    hash.update(hashes);
    logs += Number(count);
  }
  return {
    table: source.table,
    address: source.address,
    event: source.event,
    logs,
    sha256: hash.digest("hex"),
  };
}

/**
 * The table's blocks cut into slices of about `sliceRows` rows: a block
 * starts a new slice once the rows before it fill the last one.
 */
async function blockSlices(
  sandbox: PolicySandbox,
  table: string,
  { last, sliceRows }: { last: bigint; sliceRows: number },
): Promise<Slice[]> {
  const reader = await sandbox.connection.runAndReadAll(
    `select min(block_number)::VARCHAR, max(block_number)::VARCHAR from (` +
      `select block_number, (sum(rows) over (order by block_number) - rows) // ${sliceRows} as slice ` +
      `from (select block_number, count(*) as rows from ${table} ` +
      `where block_number <= ${last} group by block_number)` +
      `) group by slice order by slice`,
  );
  const [froms = [], tos = []] = reader.getColumnsJson();
  return froms.map((from, i) => ({ from: textOf(from), to: textOf(tos[i]) }));
}
