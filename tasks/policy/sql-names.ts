/**
 * The words DuckDB reserves (`duckdb_keywords()`, category `reserved`, in
 * the pinned DuckDB; a test compares): a column so named, like an event's
 * `from` and `to`, is written double-quoted in a policy (`"from"`). Other
 * keywords (`user`, `value`, `time`) work as they are.
 */
export const RESERVED_SQL_WORDS: ReadonlySet<string> = new Set(
  (
    "all analyse analyze and any array as asc asymmetric both case cast check " +
    "collate column constraint create default deferrable desc describe distinct " +
    "do else end except false fetch for foreign from group having in initially " +
    "intersect into lambda lateral leading limit not null offset on only or order " +
    "pivot pivot_longer pivot_wider placing primary qualify references returning " +
    "select show some summarize symmetric table then to trailing true union " +
    "unique unpivot using variadic when where window with"
  ).split(" "),
);

/**
 * A column's name as a policy writes it: bare when it can be, else
 * double-quoted (a reserved word, or a `$`). SQL names ignore case.
 */
export function sqlName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) &&
    !RESERVED_SQL_WORDS.has(name.toLowerCase())
    ? name
    : `"${name}"`;
}

/**
 * When the engine's syntax error is at a word that is one of the policy's
 * columns and a reserved word, how to write it; else "".
 */
export function reservedColumnHint(
  message: string,
  columns: readonly string[],
): string {
  const word = /syntax error at or near "([^"]+)"/i.exec(message)?.[1];
  if (word === undefined) return "";
  const column = columns.find((c) => c.toLowerCase() === word.toLowerCase());
  if (column === undefined || !RESERVED_SQL_WORDS.has(column.toLowerCase()))
    return "";
  return ` (the column ${column} is named by a word SQL reserves: write it "${column}", double-quoted)`;
}
