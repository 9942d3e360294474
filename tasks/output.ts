/**
 * Where a task reports: lines to stdout, warnings to stderr. Tasks print;
 * clients and helpers never do.
 */
export interface Output {
  line(text: string): void;
  warn(text: string): void;
}

export const consoleOutput: Output = {
  line: (text) => console.log(printable(text)),
  warn: (text) => console.warn(`warning: ${printable(text)}`),
};

/**
 * Characters a terminal acts on instead of showing: C0 and C1 controls, DEL,
 * bidi overrides, line separators.
 */
const CONTROL =
  // eslint-disable-next-line no-control-regex -- matching them is the point
  /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_BUT_NEWLINE =
  // eslint-disable-next-line no-control-regex -- matching them is the point
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** How long an untrusted value may be when printed: enough to recognise it. */
const MAX_UNTRUSTED_CHARS = 300;

function escapeControl(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  if (character === "\n") return "\\n";
  if (character === "\t") return "\\t";
  if (character === "\r") return "\\r";
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u{${code.toString(16)}}`;
}

/**
 * Untrusted text (a policy's value, an engine's, a node's or an API's words)
 * as it is safe to print inside a line: every control character escaped
 * (`\x1b`, `\n`), so it can neither move the cursor, clear the screen nor
 * start a line that looks like the tool's own; cut to `max` characters.
 */
export function safeText(text: string, max = MAX_UNTRUSTED_CHARS): string {
  // A cut between the two halves of a surrogate pair would leave half a character.
  const end = /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max;
  const cut =
    text.length > max
      ? `${text.slice(0, end)}… (${formatNumber(text.length - end)} more characters)`
      : text;
  return cut.replace(CONTROL, escapeControl);
}

/**
 * Text the tool prints, which may hold untrusted parts: its own line breaks
 * kept, every other control character escaped. The last net under `safeText`.
 */
export function printable(text: string): string {
  return text.replace(CONTROL_BUT_NEWLINE, escapeControl);
}

/**
 * Lines indented under a message: the first `max` in full, the rest
 * counted ("… and 12 more").
 */
export function indentedList(lines: string[], max: number): string {
  const shown = lines.slice(0, max).map((line) => `  ${line}`);
  if (lines.length > max) shown.push(`  … and ${lines.length - max} more`);
  return shown.join("\n");
}

/** `label` padded so that a task's values line up. */
export function field(label: string, value: string | bigint | number): string {
  return `${label.padEnd(22)}${String(value)}`;
}

/**
 * Unix seconds as an ISO time, without the milliseconds chain clocks never
 * have.
 */
export function formatUnixTime(seconds: bigint): string {
  return new Date(Number(seconds) * 1000).toISOString().replace(".000Z", "Z");
}

/**
 * A span of seconds as a person reads it: "42 s", "1 min 30 s", "10 min", "2 h
 * 5 min", "3 d 4 h" (its sign dropped).
 */
export function formatDuration(value: number | bigint): string {
  const seconds = Math.abs(Number(value));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes < 60) return `${minutes} min${rest === 0 ? "" : ` ${rest} s`}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

export function formatNumber(value: bigint | number): string {
  return value.toLocaleString("en-US");
}

/**
 * A count and its noun, as English has them: "1 address", "2 addresses",
 * "1,000 batches". `plural` where adding "s" is wrong ("addresses").
 */
export function counted(
  value: bigint | number,
  singular: string,
  plural = `${singular}s`,
): string {
  const one = typeof value === "bigint" ? value === 1n : value === 1;
  return `${formatNumber(value)} ${one ? singular : plural}`;
}
