import { type ActivityStore, logTable } from "../indexer/store.js";
import type { PolicySource } from "../policy/parse.js";

/** One log of a source in which the address appears, as the index holds it. */
export interface EvidenceRow {
  block: bigint;
  /** The block's time, Unix seconds. */
  time: bigint;
  txHash: string;
  txIndex: number;
  logIndex: number;
  /** The event's parameters, decoded as the policy's SQL sees them. */
  params: Record<string, string | boolean | null>;
  /** In the stage's window, or earlier history the policy may also read. */
  inWindow: boolean;
}

/** A source's rows that name the address, in chain order. */
export interface SourceEvidence {
  table: string;
  /** The event as the policy declares it. */
  event: string;
  contract: string;
  /** The parameters the address was looked for in. */
  addressColumns: string[];
  rows: EvidenceRow[];
}

/** The stage's blocks: the first in its window, and the last the policy reads. */
export interface EvidenceBlocks {
  firstInWindow: bigint;
  last: bigint;
}

const LOG_COLUMNS = [
  "block_number",
  "block_time",
  "tx_hash",
  "tx_index",
  "log_index",
];

function quoted(column: string): string {
  return `"${column}"`;
}

/**
 * The rows of `source` in which `address` (lowercase 0x) is any address
 * parameter, up to the stage's last block, in chain order. A source with no
 * address parameter names nobody: it gives no rows.
 */
async function sourceEvidence(
  store: ActivityStore,
  source: PolicySource,
  address: string,
  blocks: EvidenceBlocks,
): Promise<SourceEvidence> {
  const addressColumns = source.columns
    .filter((column) => column.solidity === "address")
    .map((column) => column.name);
  const evidence: SourceEvidence = {
    table: source.table,
    event: source.event.format("full"),
    contract: source.address,
    addressColumns,
    rows: [],
  };
  if (addressColumns.length === 0) return evidence;
  const params = source.columns.map((column) => column.name);
  const matches = addressColumns.map((c) => `${quoted(c)} = $1`).join(" or ");
  const rows = await store.rows(
    `select ${[...LOG_COLUMNS, ...params.map(quoted)].join(", ")} ` +
      `from ${logTable(source)} where block_number <= $2 and (${matches}) ` +
      "order by block_number, tx_index, log_index",
    [address, Number(blocks.last)],
  );
  evidence.rows = rows.map((row) => evidenceRow(row, params, blocks));
  return evidence;
}

function evidenceRow(
  row: (string | number | boolean | null)[],
  params: string[],
  blocks: EvidenceBlocks,
): EvidenceRow {
  const [block, time, txHash, txIndex, logIndex, ...values] = row;
  const number = BigInt(String(block));
  return {
    block: number,
    time: BigInt(String(time)),
    txHash: String(txHash),
    txIndex: Number(txIndex),
    logIndex: Number(logIndex),
    params: Object.fromEntries(
      params.map((name, i) => {
        const value = values[i];
        return [
          name,
          typeof value === "number" ? String(value) : (value ?? null),
        ];
      }),
    ),
    inWindow: number >= blocks.firstInWindow && number <= blocks.last,
  };
}

/** Every source's rows that name `address`, in the policy's order of sources. */
export async function addressEvidence(
  store: ActivityStore,
  sources: PolicySource[],
  address: string,
  blocks: EvidenceBlocks,
): Promise<SourceEvidence[]> {
  const evidence: SourceEvidence[] = [];
  for (const source of sources)
    evidence.push(
      await sourceEvidence(store, source, address.toLowerCase(), blocks),
    );
  return evidence;
}
