import {
  BIGINT,
  BOOLEAN,
  type DuckDBConnection,
  type DuckDBType,
  HUGEINT,
  VARCHAR,
} from "@duckdb/node-api";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { safeText } from "../output.js";
import type { PolicySource } from "../policy/parse.js";

type SourceColumn = PolicySource["columns"][number];

/**
 * How the index stores a parameter. A policy sees every integer as HUGEINT
 * (the views cast it back, see `policyColumns`), but one whose Solidity type
 * fits 64 bits (`uint8`…`uint56`, `int8`…`int64`) is stored as BIGINT:
 * bit-packed to its values' width where HUGEINT takes 16 bytes a value,
 * which every computation reads and keeps cached (160 MB a column at
 * 10,000,000 logs). Its text, which the digest hashes, is the same.
 */
export function storedType(
  column: Pick<SourceColumn, "sql" | "solidity">,
): string {
  if (column.sql !== "HUGEINT") return column.sql;
  const [, unsigned, bits] = /^(u?)int(\d*)$/.exec(column.solidity) ?? [];
  const width = Number(bits === undefined || bits === "" ? 256 : bits);
  return width < 64 || (unsigned === "" && width === 64) ? "BIGINT" : "HUGEINT";
}

/**
 * A parameter's column as the index creates it. A HUGEINT column is left
 * uncompressed: DuckDB's bit-packing of 128-bit integers costs some 60 times
 * the read of the plain values (10,000,000 values summed: 2.45 s against
 * 0.04 s), which every computation and digest of a stage pays; the file
 * grows by 16 bytes a value instead.
 */
export function columnDefinition(column: SourceColumn): string {
  const type = storedType(column);
  return `"${column.name}" ${type}${type === "HUGEINT" ? " using compression uncompressed" : ""}`;
}

const APPENDED_TYPES: Record<string, DuckDBType> = {
  BIGINT,
  BOOLEAN,
  HUGEINT,
  VARCHAR,
};

/**
 * The types a log table's parameter columns have in the index (those after
 * the log's own `logColumns`), as the appender takes them: read from the
 * table, so an index made before narrow integers were stored as BIGINT
 * (as HUGEINT) is appended to as it is.
 */
export async function storedParameterTypes(
  connection: DuckDBConnection,
  { file, table }: { file: string; table: string },
  logColumns: number,
): Promise<DuckDBType[]> {
  const reader = await connection.runAndReadAll(
    "select data_type from duckdb_columns() where schema_name = 'main' and " +
      "table_name = $1 and database_name = current_database() order by column_index",
    [table],
  );
  return reader
    .getRowsJson()
    .slice(logColumns)
    .map(([column]) => {
      const type = typeof column === "string" ? column : JSON.stringify(column);
      const appended = APPENDED_TYPES[type];
      // No version of this plugin makes such a column: a damaged or
      // foreign file.
      if (appended === undefined)
        throw new VipError(ERRORS.INDEXER.INDEX.INDEX_UNOPENABLE, {
          file,
          reason: `its table ${table} has a column of type ${safeText(type, 40)}, which no version of this plugin writes`,
        });
      return appended;
    });
}
