import { readFile } from "node:fs/promises";
import path from "node:path";

import { DuckDBInstance } from "@duckdb/node-api";
import { expect } from "chai";

import {
  ADMITTED,
  admittedAs,
  refusedNames,
} from "../../tasks/policy/admitted-sql.js";

/** The README's row for an admitted group, as the README writes it. */
function readmeRow(group: (typeof ADMITTED)[number]): string {
  return `| ${group.group} | ${group.names.map((n) => `\`${n.replace(/\|/g, "\\|")}\``).join(" ")} |`;
}

describe("the allow-list of admitted SQL", () => {
  let functions: Map<string, Set<string>>;
  /** Names with at least one overload without DOUBLE or FLOAT anywhere. */
  let exact: Set<string>;
  before(async () => {
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    const reader = await connection.runAndReadAll(
      "select function_name, coalesce(stability, 'MACRO') from duckdb_functions()",
    );
    const overloads = await connection.runAndReadAll(
      "select distinct function_name from duckdb_functions() where not (coalesce(return_type, '') similar to '.*(DOUBLE|FLOAT).*' or coalesce(array_to_string(parameter_types, ','), '') similar to '.*(DOUBLE|FLOAT).*')",
    );
    exact = new Set(overloads.getRowsJson().map((row) => row[0] as string));
    functions = new Map();
    for (const [name, stability] of reader.getRowsJson() as string[][])
      functions.set(
        name ?? "",
        (functions.get(name ?? "") ?? new Set()).add(stability ?? ""),
      );
    connection.closeSync();
    instance.closeSync();
  });

  it("names only functions the engine has, none of them volatile or reading the clock", () => {
    for (const group of ADMITTED)
      for (const name of group.names) {
        const stability = functions.get(name);
        expect(
          stability,
          `${name} (${group.group}) is a DuckDB function`,
        ).to.not.equal(undefined);
        for (const kind of stability ?? [])
          expect(["CONSISTENT", "MACRO"], `${name} is ${kind}`).to.include(
            kind,
          );
      }
  });

  it("names only functions with an exact overload (none that always takes or gives a DOUBLE)", () => {
    for (const group of ADMITTED)
      for (const name of group.names)
        expect(exact.has(name), `${name} (${group.group})`).to.equal(true);
  });

  it("admits none of the names it refuses with a reason", () => {
    for (const name of refusedNames())
      expect(admittedAs(name), name).to.deep.equal([]);
  });

  it("refuses every function the engine marks volatile or consistent within one query only", () => {
    for (const [name, kinds] of functions)
      if (kinds.has("VOLATILE") || kinds.has("CONSISTENT_WITHIN_QUERY"))
        expect(admittedAs(name), name).to.deep.equal([]);
  });

  it("is listed in the README, group by group", async () => {
    const readme = await readFile(
      path.join(import.meta.dirname, "..", "..", "README.md"),
      "utf8",
    );
    // Prettier pads the table's cells: compared with single spaces.
    const rows = readme.split("\n").map((line) => line.replace(/ +/g, " "));
    for (const group of ADMITTED) expect(rows).to.include(readmeRow(group));
  });
});
