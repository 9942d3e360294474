import { groupThousands } from "./numbers.js";

/** The latest time a JavaScript Date holds, in seconds. */
const MAX_DATE_SECONDS = 8_640_000_000_000n;

/** Unix seconds (a manifest's decimal string) as UTC: "2026-01-31 12:00:00 UTC". */
export function formatUtc(seconds: string): string {
  const value = BigInt(seconds);
  if (value > MAX_DATE_SECONDS) return `${seconds} (unix seconds)`;
  const iso = new Date(Number(value) * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** A stage's window as a reader sees it: start inclusive, end exclusive. */
export function formatWindow(window: { start: string; end: string }): string {
  return `${formatUtc(window.start)} – ${formatUtc(window.end)}`;
}

/**
 * A count with thousands separators, the same on every machine (Node's
 * `toLocaleString` groups only where it was built with ICU's data).
 */
export function formatCount(value: number): string {
  return groupThousands(String(value));
}

/** Where a stage stands: its files, and the contract when it was asked. */
export interface StageState {
  final: boolean;
  /** Undefined when no `--network` was given. */
  finalizedOnChain?: boolean;
}

export function stateLabel(state: StageState): string {
  const files = state.final ? "final" : "live";
  if (state.finalizedOnChain === undefined) return files;
  return `${files}, ${state.finalizedOnChain ? "finalized on chain" : "not finalized on chain"}`;
}

/** A signed change: "+5", "-3". */
export function formatDelta(delta: bigint): string {
  return delta > 0n ? `+${delta}` : delta.toString();
}

/**
 * A word of a shell command as the pages print it to copy: as it is when
 * it holds only characters no shell treats specially, else single-quoted.
 */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_./:@=+-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
