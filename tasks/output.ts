/**
 * Where a task reports: lines to stdout, warnings to stderr. Tasks print;
 * clients and helpers never do.
 */
export interface Output {
  line(text: string): void;
  warn(text: string): void;
}

export const consoleOutput: Output = {
  line: (text) => console.log(text),
  warn: (text) => console.warn(`warning: ${text}`),
};

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
