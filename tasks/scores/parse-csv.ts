import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

import { parse } from "csv-parse";

import type { EntryCollector } from "./entry.js";
import { defined } from "../errors.js";

/**
 * Reads `address,score` CSV (a header naming both columns; other columns are
 * ignored) as a stream, so memory holds the table, never the text. Returns the
 * file's SHA-256, hashed from the same stream.
 */
export async function collectCsv(
  file: string,
  collector: EntryCollector,
): Promise<string> {
  const hash = createHash("sha256");
  const source = createReadStream(file);
  source.on("data", (chunk) => hash.update(chunk));
  const parser = source.pipe(
    parse({
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
      comment: "#",
      comment_no_infix: true,
    }),
  );
  let columns: { address: number; score: number } | undefined;
  let headerSeen = false;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      const line = info.lines;
      if (!headerSeen) {
        headerSeen = true;
        const names = record.map((name) => name.trim().toLowerCase());
        const address = names.indexOf("address");
        const score = names.indexOf("score");
        const missing = [
          address < 0 ? "address" : "",
          score < 0 ? "score" : "",
        ].filter(Boolean);
        if (missing.length > 0) {
          collector.problem(
            line,
            `the header lacks the column(s) ${missing.join(", ")}: ` +
              'the first line must name address and score, e.g. "address,score"',
          );
          source.destroy();
          return hash.digest("hex");
        }
        columns = { address, score };
        continue;
      }
      const { address, score } = defined(
        columns,
        "the header line, read first, set the columns",
      );
      const width = Math.max(address, score) + 1;
      if (record.length < width) {
        collector.problem(
          line,
          `has ${record.length} field(s) where the header has ${width}: a column is missing`,
        );
        continue;
      }
      collector.add(
        line,
        defined(record[address], "the record has every column (width)"),
        defined(record[score], "the record has every column (width)"),
      );
    }
  } catch (error) {
    // csv-parse's errors say on which line the file broke.
    const lines =
      error instanceof Error &&
      "lines" in error &&
      typeof error.lines === "number"
        ? error.lines
        : 0;
    collector.problem(
      lines,
      `is not valid CSV: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return hash.digest("hex");
}
