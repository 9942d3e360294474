import { safeText } from "../output.js";

/** A construct of a policy, where it starts in the file, and what to do about it. */
export interface PolicyConstruct {
  line: number;
  column: number;
  /** The policy's text where the construct starts (safe to print). */
  text: string;
  /** Why it is refused or checked, and the exact way to write it. */
  hint: string;
  /** It brings in floating point (the refusal then says so first). */
  floating?: boolean;
}

/** A string field of a serialized tree, or "" (the engine's JSON is not typed here). */
export function textOf(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** DuckDB's "no location" marker (2^64 − 1), which JSON reads as a double. */
const NO_LOCATION = 1e18;

/** The offset a parsed or bound node carries into the policy's text, if any. */
export function ownLocation(node: {
  query_location?: unknown;
}): number | undefined {
  const at = node.query_location;
  return typeof at === "number" && at >= 0 && at < NO_LOCATION ? at : undefined;
}

/**
 * Where the policy's SQL starts: its first line that is not a comment (the
 * header), for what has no place of its own.
 */
export function statementStart(sql: string): number {
  const match = /^(?!\s*--)\s*\S/m.exec(sql);
  return match === null
    ? 0
    : byteOffset(sql, match.index + (match[0].length - 1));
}

/**
 * The UTF-8 byte offset of a character of `sql`: DuckDB's places are bytes,
 * JavaScript's are UTF-16 units, and they part at the first character
 * beyond ASCII (a `½` in a comment, a `€` in a literal).
 */
export function byteOffset(sql: string, index: number): number {
  return Buffer.byteLength(sql.slice(0, index));
}

/**
 * The construct at byte `offset` of `sql` (the whole policy file, as DuckDB
 * places it), with its hint.
 */
export function constructAt(
  sql: string,
  offset: number,
  hint: string,
  floating = false,
): PolicyConstruct {
  const index = Buffer.from(sql).subarray(0, offset).toString().length;
  const before = sql.slice(0, index);
  const line = before.split("\n").length;
  const column = index - before.lastIndexOf("\n");
  const text = safeText((sql.slice(index).split("\n")[0] ?? "").trim(), 60);
  return { line, column, text, hint, ...(floating ? { floating } : {}) };
}

/** Constructs as lines of a refusal: `file:line:column: text`, then the hint. */
export function listConstructs(
  file: string,
  constructs: PolicyConstruct[],
): string {
  const seen = new Set<string>();
  return [...constructs]
    .sort((a, b) => a.line - b.line || a.column - b.column)
    .filter((c) => {
      const key = `${c.line}:${c.column}:${c.hint}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((c) => `  ${file}:${c.line}:${c.column}: ${c.text}\n    ${c.hint}`)
    .join("\n");
}
