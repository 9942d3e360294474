const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Untrusted text (a policy's name or SQL, an address from a file) as it is
 * safe to put in an HTML page: in an element's text or a quoted attribute.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? "");
}

/**
 * `value` as JSON that is safe inside a `<script type="application/json">`
 * element: no `<` (so no `</script>` or `<!--`), `>` or `&` and no line
 * separators, each written as its `\u` escape, which JSON.parse reads back
 * as the same character.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (character) =>
      `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`,
  );
}
