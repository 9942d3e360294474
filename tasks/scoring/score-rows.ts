import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { indentedList, safeText } from "../output.js";

const MAX_UINT64 = 2n ** 64n - 1n;
/** Problems listed in full; the rest are counted. */
const MAX_PROBLEMS_SHOWN = 20;

export interface ScoreRow {
  /** Lowercase 0x address. */
  address: string;
  score: bigint;
}

/**
 * The policy's answer as the engine gives it, column by column (a
 * column's JSON is a tenth of the cost of its rows'): addresses as text,
 * scores as text (a JSON number for small integer types).
 */
export interface RawAnswer {
  addresses: unknown[];
  scores: unknown[];
}

/**
 * The policy's answer as scores, every row checked, in address order so the
 * same policy names the same problems whatever order the engine answered in.
 * Any problem refuses the whole answer, naming each bad row (its values
 * printed safe: they are the policy's, not the tool's). A row per address:
 * rows are visited in order of their lowercased address, so the same address
 * twice is two rows in a row.
 */
export function checkedRows(
  file: string,
  /** How a problem names the window: `stage 7`, or a trial's window. */
  label: string,
  answer: RawAnswer,
): ScoreRow[] {
  const given = answer.addresses.map((value) =>
    typeof value === "string" ? value.trim() : null,
  );
  const keys = given.map((address) => address?.toLowerCase() ?? "");
  const order = keys
    .map((_, i) => i)
    .sort((a, b) => compareText(keys[a] ?? "", keys[b] ?? ""));
  const problems: string[] = [];
  const rows: ScoreRow[] = [];
  let previous: string | undefined;
  for (const i of order) {
    const address = given[i] ?? null;
    const checked = checkRow(address, scoreText(answer.scores[i]), previous);
    if (address !== null && isAddress(address)) previous = keys[i];
    if (typeof checked === "string")
      problems.push(
        `${label}: ${address === null ? "(NULL)" : safeText(address, 80)}: ${checked}`,
      );
    else rows.push(checked);
  }
  if (problems.length > 0)
    throw new VipError(ERRORS.SCORING.RESULTS.SCORES_INVALID, {
      file,
      count: problems.length,
      problems: indentedList(problems, MAX_PROBLEMS_SHOWN),
    });
  return rows;
}

/** A score as the engine gives it: text, or a JSON number for small integer types. */
function scoreText(score: unknown): string | null {
  return typeof score === "string" || typeof score === "number"
    ? String(score)
    : null;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function isAddress(text: string): boolean {
  return ADDRESS.test(text);
}

/**
 * One row of the policy's answer, as a score, or what is wrong with it;
 * `previous` is the last well-formed address before it in address order.
 */
function checkRow(
  address: string | null,
  rawScore: string | null,
  previous: string | undefined,
): ScoreRow | string {
  if (address === null) return "an address is NULL";
  if (!isAddress(address)) return "is not an address (0x and 40 hex digits)";
  const lower = address.toLowerCase();
  if (/^0x0{40}$/.test(lower)) return "is the zero address";
  if (lower === previous) return "is listed twice (group by address)";
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

/** An address's bytes in `PackedRows`. */
export const ADDRESS_BYTES = 20;

/**
 * Score rows as they cross between processes: each address as its 20 bytes,
 * each score as a uint64 (every checked score fits one), two copies of
 * memory instead of an object per row.
 */
export interface PackedRows {
  addresses: Uint8Array;
  scores: BigUint64Array;
}

export function packRows(rows: ScoreRow[]): PackedRows {
  const addresses = Buffer.alloc(rows.length * ADDRESS_BYTES);
  const scores = new BigUint64Array(rows.length);
  rows.forEach((row, i) => {
    addresses.write(
      row.address.slice(2),
      i * ADDRESS_BYTES,
      ADDRESS_BYTES,
      "hex",
    );
    scores[i] = row.score;
  });
  return { addresses, scores };
}

export function unpackRows({ addresses, scores }: PackedRows): ScoreRow[] {
  const bytes = Buffer.from(
    addresses.buffer,
    addresses.byteOffset,
    addresses.byteLength,
  );
  return Array.from(scores, (score, i) => ({
    address: `0x${bytes.toString("hex", i * ADDRESS_BYTES, (i + 1) * ADDRESS_BYTES)}`,
    score,
  }));
}
