/**
 * Columns every source table has besides its event's parameters: the log's
 * block, its transaction (hash, and index in the block as the node gives it)
 * and its index within that transaction (from 0). `(block_number, tx_index,
 * log_index)` is the log's place in chain order.
 */
export const LOG_COLUMNS = [
  "block_number",
  "block_time",
  "tx_hash",
  "tx_index",
  "log_index",
] as const;

/** The log columns' SQL types, as the index stores them. */
export const LOG_COLUMN_TYPES: Record<(typeof LOG_COLUMNS)[number], string> = {
  block_number: "BIGINT",
  block_time: "BIGINT",
  tx_hash: "VARCHAR",
  tx_index: "INTEGER",
  log_index: "INTEGER",
};

/** A log's place in chain order: the views', the digest's and the README's. */
export const CHAIN_ORDER = ["block_number", "tx_index", "log_index"] as const;

/**
 * A source table's columns as the engine reads them: the log's own, then the
 * event's parameters (quoted: a parameter may be named like a keyword).
 */
export function sourceColumns(source: Pick<EngineSource, "columns">): string[] {
  return [...LOG_COLUMNS, ...source.columns.map((name) => `"${name}"`)];
}

/**
 * A source table's columns as a policy sees them, each parameter in its
 * policy type: an integer the index stores narrower (see `storedType`) is
 * cast back to HUGEINT, so the policy's arithmetic is the same whatever the
 * index holds.
 */
export function policyColumns(
  source: Pick<EngineSource, "columns" | "columnTypes">,
): string[] {
  return [
    ...LOG_COLUMNS,
    ...source.columns.map((name, i) =>
      source.columnTypes[i] === "HUGEINT"
        ? `"${name}"::HUGEINT as "${name}"`
        : `"${name}"`,
    ),
  ];
}

/**
 * What the engine needs of a policy, as plain data: it crosses into the
 * process the policy runs in (see `computeStage`), which need not load the
 * header parser or ethers.
 */
export interface EnginePolicy {
  file: string;
  /** The whole file: its header lines are SQL comments. */
  sql: string;
  sources: EngineSource[];
}

export interface EngineSource {
  /** The table's name in the policy's SQL. */
  table: string;
  /** Names the stored log table (`log_<id>`). */
  id: string;
  /** Line of its `@source` in the policy file. */
  line: number;
  /** Lowercase 0x address of the contract. */
  address: string;
  /** The event's full signature, as the manifest names it. */
  event: string;
  /** The event's parameters, in order: the table's columns after the log's own. */
  columns: string[];
  /** Each parameter's SQL type, as the index stores it (`HUGEINT`, …). */
  columnTypes: string[];
}
