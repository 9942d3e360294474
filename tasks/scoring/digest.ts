import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import {
  CHAIN_ORDER,
  type EngineSource,
  sourceColumns,
} from "../policy/engine-policy.js";
import type { PolicySandbox } from "./sandbox.js";

export interface SourceDigest {
  table: string;
  address: string;
  event: string;
  logs: number;
  /** sha256 of the rows up to the stage's last block, in chain order. */
  sha256: string;
}

/**
 * A source's rows up to the stage's last block, hashed in the engine: each
 * row's columns as text joined by "," (block_number, block_time, tx_hash,
 * tx_index, log_index, then the parameters as declared) is hashed with
 * SHA-256, and the row hashes, in hex and chain order (block_number,
 * tx_index, log_index), are concatenated and hashed again. What a challenger
 * compares; the README states it, so it can be recomputed without this tool.
 */
export async function digestSource(
  sandbox: PolicySandbox,
  source: EngineSource,
): Promise<SourceDigest> {
  const columns = sourceColumns(source)
    .map((c) => `${c}::VARCHAR`)
    .join(", ");
  const reader = await sandbox.connection.runAndReadAll(
    `select count(*)::BIGINT, sha256(coalesce(string_agg(sha256(concat_ws(',', ${columns})), ` +
      `'' order by ${CHAIN_ORDER.join(", ")}), '')) from ${source.table}`,
  );
  const [count, hash] = reader.getRowsJson()[0] ?? [];
  if (typeof hash !== "string")
    throw new VipError(ERRORS.SCORING.DIGEST_FAILED, { table: source.table });
  return {
    table: source.table,
    address: source.address,
    event: source.event,
    logs: Number(count),
    sha256: hash,
  };
}
