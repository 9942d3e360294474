import { expect } from "chai";

/**
 * A policy's text with each `@source` line pointed at the contract `addresses`
 * names for its table, as an operator edits a copied example. Every table of
 * the policy must be named, and every name used.
 */
export function pointSources(
  sql: string,
  addresses: Record<string, string>,
): string {
  const seen = new Set<string>();
  const pointed = sql.replace(
    /^(--\s*@source\s+)(\S+)(\s+)0x[0-9a-fA-F]{40}/gm,
    (_, head: string, table: string, gap: string) => {
      const address = addresses[table];
      expect(address, `an address for table ${table}`).to.be.a("string");
      seen.add(table);
      return `${head}${table}${gap}${address}`;
    },
  );
  expect([...seen].sort()).to.deep.equal(Object.keys(addresses).sort());
  return pointed;
}
