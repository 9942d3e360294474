import { VipError } from "../errors.js";
import { safeText } from "../output.js";

const MAX_UINT64 = 2n ** 64n - 1n;
/** Problems listed in full; the rest are counted. */
const MAX_PROBLEMS_SHOWN = 20;

export interface ScoreRow {
  /** Lowercase 0x address. */
  address: string;
  score: bigint;
}

/** A row as the engine answered it: the address and score as text. */
export type RawRow = [address: string | null, score: string | null];

/**
 * The policy's answer as scores, every row checked, in address order so the
 * same policy names the same problems whatever order the engine answered in.
 * Any problem refuses the whole answer, naming each bad row (its values
 * printed safe: they are the policy's, not the tool's).
 */
export function checkedRows(
  file: string,
  stage: bigint,
  raw: RawRow[],
): ScoreRow[] {
  const sorted = raw
    .map(([address, score]): RawRow => [
      address?.trim() ?? null,
      // The engine answers small integer types as JSON numbers.
      score === null || score === undefined ? null : String(score),
    ])
    .sort(([a], [b]) =>
      compareText((a ?? "").toLowerCase(), (b ?? "").toLowerCase()),
    );
  const problems: string[] = [];
  const rows: ScoreRow[] = [];
  const seen = new Set<string>();
  for (const [address, score] of sorted) {
    const checked = checkRow(address, score, seen);
    if (typeof checked === "string")
      problems.push(
        `stage ${stage}: ${address === null ? "(NULL)" : safeText(address, 80)}: ${checked}`,
      );
    else rows.push(checked);
  }
  if (problems.length > 0)
    throw new VipError(
      `${file}: ${problems.length} score(s) cannot be written; nothing was written:\n` +
        problems
          .slice(0, MAX_PROBLEMS_SHOWN)
          .map((p) => `  ${p}`)
          .join("\n") +
        (problems.length > MAX_PROBLEMS_SHOWN
          ? `\n  … and ${problems.length - MAX_PROBLEMS_SHOWN} more`
          : ""),
    );
  return rows;
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One row of the policy's answer, as a score, or what is wrong with it. */
function checkRow(
  address: string | null,
  rawScore: string | null,
  seen: Set<string>,
): ScoreRow | string {
  if (address === null) return "an address is NULL";
  if (!/^0x[0-9a-fA-F]{40}$/.test(address))
    return "is not an address (0x and 40 hex digits)";
  const lower = address.toLowerCase();
  if (/^0x0{40}$/.test(lower)) return "is the zero address";
  if (seen.has(lower)) return "is listed twice (group by address)";
  seen.add(lower);
  if (rawScore === null) return "its score is NULL";
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(rawScore);
  if (match === null)
    return `its score ${safeText(rawScore, 80)} is not a number`;
  if (match[1] === "-" && /[1-9]/.test(`${match[2]}${match[3] ?? ""}`))
    return `its score ${rawScore} is negative`;
  // A DECIMAL is floored: its integer part, the fraction dropped.
  const score = BigInt(match[2] ?? "0");
  if (score > MAX_UINT64)
    return `its score ${score} is above the uint64 maximum ${MAX_UINT64}`;
  return { address: lower, score };
}
