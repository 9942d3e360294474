import { DuckDBInstance } from "@duckdb/node-api";

/**
 * A source's digest as the README defines it, in one query over the index's
 * table: every row's columns as text joined by ",", SHA-256 each, the
 * hashes concatenated in chain order and hashed. What the tool's digest
 * (sliced, and resumed from the index's states) must equal.
 */
export async function referenceDigest(
  file: string,
  table: string,
  parameters: string[],
  last: bigint,
): Promise<{ logs: number; sha256: string }> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    await connection.run(`attach '${file}' as store (read_only)`);
    const columns = [
      "block_number",
      "block_time",
      "tx_hash",
      "tx_index",
      "log_index",
      ...parameters,
    ]
      .map((c) => `"${c}"::VARCHAR`)
      .join(", ");
    const reader = await connection.runAndReadAll(
      `select count(*)::INTEGER, sha256(coalesce(string_agg(sha256(concat_ws(',', ${columns})), '' ` +
        `order by block_number, tx_index, log_index), '')) ` +
        `from store.main.${table} where block_number <= ${last}`,
    );
    const [logs, sha256] = reader.getRowsJson()[0] ?? [];
    return {
      logs: Number(logs),
      sha256: typeof sha256 === "string" ? sha256 : "",
    };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
