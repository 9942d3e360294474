import { DuckDBInstance } from "@duckdb/node-api";

import { indexSources } from "../../tasks/indexer/index-sources.js";
import type { RollupReader } from "../../tasks/indexer/rpc.js";
import { ActivityStore } from "../../tasks/indexer/store.js";
import type { PolicySource } from "../../tasks/policy/parse.js";

/** Runs one query on an index file, opened read-only, and closes it: what a test reads of an index. */
export function queryIndex(file: string, sql: string): Promise<unknown[][]> {
  return runOnIndex(file, sql, { access_mode: "READ_ONLY" });
}

/** Runs one statement on an index file opened for writing: a test's change behind the tool's back. */
export function changeIndex(file: string, sql: string): Promise<unknown[][]> {
  return runOnIndex(file, sql, {});
}

async function runOnIndex(
  file: string,
  sql: string,
  options: Record<string, string>,
): Promise<unknown[][]> {
  const instance = await DuckDBInstance.create(file, options);
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowsJson();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** The id of the one source in an index (its logs are in `log_<id>`). */
export async function onlySourceId(file: string): Promise<string> {
  const [[id]] = (await queryIndex(file, "select id from sources")) as [
    [string],
  ];
  return id;
}

/**
 * Indexes `sources` through `reader` into a new index at `file` and answers
 * `sql` on it: what a test of the sync stores. The index is closed either way.
 */
export async function indexAndQuery(
  file: string,
  reader: RollupReader,
  sources: PolicySource[],
  sql: string,
): Promise<unknown[][]> {
  const store = await ActivityStore.open(file);
  try {
    await indexSources(reader, store, sources, {
      line: () => {},
      warn: () => {},
    });
    return await store.rows(sql);
  } finally {
    store.close();
  }
}
