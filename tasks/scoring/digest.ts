import { PolicySandbox } from "./sandbox.js";
import {
  digestStateAt,
  type KeptDigestState,
} from "../indexer/digest-states.js";
import { RunningDigest } from "../indexer/running-digest.js";
import {
  digestRows,
  SLICE_ROWS,
  type SliceConnections,
} from "../indexer/source-digest.js";
import { logTable } from "../indexer/store.js";
import type { EngineSource } from "../policy/engine-policy.js";

export interface SourceDigest {
  table: string;
  address: string;
  event: string;
  logs: number;
  /** sha256 of the rows up to the stage's last block, in chain order. */
  sha256: string;
}

/**
 * The digest's engine's buffers, in MB: a slice and the pages of the index
 * it reads, which the engine would otherwise keep cached up to its limit.
 */
const DIGEST_MEMORY_MB = 128;

/**
 * Slices the engine hashes at once (see `digestRows`), each query on one
 * thread: over 10,000,000 rows, four of 60,000 rows took 5.5-5.8 s and
 * 10.7-11.3 s of CPU in a 472-491 MB process, against 6.4-6.6 s and
 * 11.5 s for two of 125,000 on DuckDB's two threads each, whose parallel
 * scan and merge of an ordered aggregate cost CPU the two cores lack
 * (three of 125,000: 5.3-5.5 s, but 540 MB).
 */
const SLICES_IN_FLIGHT = 4;

interface DigestOptions {
  last: bigint;
  /** Rows the engine hashes at once (see `SLICE_ROWS`). */
  sliceRows: number;
  /** Slices hashed at once (see `digestRows`). */
  inFlight: number;
  /**
   * Go on from the index's digest states; false hashes every row (tests
   * compare the two).
   */
  fromStates: boolean;
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
    inFlight = SLICES_IN_FLIGHT,
    fromStates = true,
  }: { last: bigint; tempDir: string } & Partial<Omit<DigestOptions, "last">>,
): Promise<{ sources: SourceDigest[]; states: KeptDigestState[] }> {
  const sandbox = await PolicySandbox.open(
    indexFile,
    // No deadline: the digest is this tool's own query, not the policy's.
    { timeoutSeconds: 0, memoryMb: DIGEST_MEMORY_MB },
    { tempDir, threads: 1 },
  );
  try {
    const connections: SliceConnections = [sandbox.connection];
    while (connections.length < inFlight)
      connections.push(await sandbox.connect());
    const digests: SourceDigest[] = [];
    const states: KeptDigestState[] = [];
    for (const source of sources) {
      const { digest, state } = await digestSource(source, connections, {
        last,
        sliceRows,
        fromStates,
      });
      digests.push(digest);
      if (state !== undefined) states.push(state);
    }
    return { sources: digests, states };
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
 * The digest goes on from the index's last state at or before the stage's
 * last block (`digest_states`) and hashes only the rows after it (all of
 * them when there is none, or when `fromStates` is false: the same bytes);
 * its state at the last block is returned, for the index to keep.
 */
async function digestSource(
  source: EngineSource,
  connections: SliceConnections,
  { last, sliceRows, fromStates }: Omit<DigestOptions, "inFlight">,
): Promise<{ digest: SourceDigest; state?: KeptDigestState }> {
  const known = fromStates
    ? await digestStateAt(connections[0], source.id, last)
    : undefined;
  const digest =
    known === undefined
      ? await RunningDigest.start()
      : await RunningDigest.resume(known.state, known.logs);
  await digestRows(
    connections,
    {
      name: source.table,
      table: `store.main.${logTable(source)}`,
      parameters: source.columns,
      after: known?.through,
      through: last,
    },
    digest,
    sliceRows,
  );
  return {
    digest: {
      table: source.table,
      address: source.address,
      event: source.event,
      logs: digest.rows,
      sha256: digest.hex(),
    },
    // A state at `last` to keep, unless the index has it already.
    ...(known?.through === last
      ? {}
      : {
          state: {
            sourceId: source.id,
            through: last,
            logs: digest.rows,
            state: digest.state(),
          },
        }),
  };
}
