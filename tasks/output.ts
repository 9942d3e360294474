/** Where a task reports: lines to stdout, warnings to stderr. Tasks print; clients and helpers never do. */
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

export function formatNumber(value: bigint | number): string {
  return value.toLocaleString("en-US");
}
