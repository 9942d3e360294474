import type { PairedScore } from "./paired-scores.js";
import { sharePointsChange, type Totals } from "./shares.js";
import { formatDelta } from "../report/format.js";
import { sharePercent } from "../report/model.js";
import { eip55 } from "../scores/checksum.js";

/** An address as people read it: EIP-55 checksummed, as on the report's pages. */
export function displayAddress(lowercase: string): string {
  return eip55(lowercase.slice(2));
}

/** `50 → 24 (-26)`: scores exactly as the files hold them. */
export function scoreMove(pair: PairedScore): string {
  return `${pair.before} → ${pair.after} (${formatDelta(pair.after - pair.before)})`;
}

/** `24.1546% → 13.1868% (-10.9678 points)`: four decimals, for display only. */
export function shareMove(pair: PairedScore, totals: Totals): string {
  return (
    `${sharePercent(pair.before, totals.before)}% → ` +
    `${sharePercent(pair.after, totals.after)}% ` +
    `(${sharePointsChange(pair, totals)} points)`
  );
}
