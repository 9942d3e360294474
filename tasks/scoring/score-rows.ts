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

/** The sum of every score of packed rows. */
export function packedTotal({ scores }: PackedRows): bigint {
  let total = 0n;
  for (const score of scores) total += score;
  return total;
}

/** The score of `address` in packed rows (in address order), or undefined. */
export function packedScore(
  rows: PackedRows,
  address: string,
): bigint | undefined {
  const key = addressBytes(address);
  if (key === undefined) return undefined;
  const bytes = bytesOf(rows.addresses);
  let [low, high] = [0, rows.scores.length - 1];
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const order = compareAt(bytes, middle, key);
    if (order === 0) return rows.scores[middle];
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

/**
 * Packed rows (in address order) with each of `addresses` they do not hold
 * added with 0, still in address order; and the addresses added, lowercase,
 * in order. One walk over both lists in order, comparing each row's hex: for
 * 1,000,000 rows and as many addresses, 0.55 s when they come nearly sorted
 * (the contract lists them in the order they were pushed), 1.1 s shuffled.
 */
export function withZeros(
  rows: PackedRows,
  addresses: string[],
): { rows: PackedRows; zeroed: string[] } {
  const wanted = addresses.map((a) => a.toLowerCase()).sort();
  const bytes = bytesOf(rows.addresses);
  const count = rows.scores.length;
  const hexAt = (i: number) => (i < count ? addressHexAt(bytes, i) : undefined);
  const zeroed: string[] = [];
  let at = 0;
  let held = hexAt(at);
  wanted.forEach((address, i) => {
    if (address === wanted[i - 1]) return;
    while (held !== undefined && held < address) held = hexAt(++at);
    if (held !== address && isAddress(address)) zeroed.push(address);
  });
  if (zeroed.length === 0) return { rows, zeroed };
  return { rows: mergedRows(rows, zeroed), zeroed };
}

/** Packed rows and addresses they do not hold (sorted), merged with 0 each. */
function mergedRows(rows: PackedRows, zeroed: string[]): PackedRows {
  const count = rows.scores.length + zeroed.length;
  const addresses = Buffer.alloc(count * ADDRESS_BYTES);
  const scores = new BigUint64Array(count);
  const bytes = bytesOf(rows.addresses);
  let [from, to] = [0, 0];
  for (const address of zeroed) {
    const key = addressBytes(address) as Buffer;
    while (from < rows.scores.length && compareAt(bytes, from, key) < 0) {
      bytes.copy(
        addresses,
        to * ADDRESS_BYTES,
        from * ADDRESS_BYTES,
        (from + 1) * ADDRESS_BYTES,
      );
      scores[to++] = rows.scores[from++] as bigint;
    }
    key.copy(addresses, to * ADDRESS_BYTES);
    scores[to++] = 0n;
  }
  bytes.copy(addresses, to * ADDRESS_BYTES, from * ADDRESS_BYTES);
  scores.set(rows.scores.subarray(from), to);
  return { addresses, scores };
}

/** An address's 20 bytes, or undefined when it is not `0x` and 40 hex digits. */
function addressBytes(address: string): Buffer | undefined {
  return isAddress(address) ? Buffer.from(address.slice(2), "hex") : undefined;
}

/** How packed row `i`'s address orders against `key`'s bytes. */
function compareAt(bytes: Buffer, i: number, key: Buffer): number {
  return bytes.compare(
    key,
    0,
    ADDRESS_BYTES,
    i * ADDRESS_BYTES,
    (i + 1) * ADDRESS_BYTES,
  );
}

export function bytesOf(addresses: Uint8Array): Buffer {
  return Buffer.from(
    addresses.buffer,
    addresses.byteOffset,
    addresses.byteLength,
  );
}

/** Packed row `i`'s address, lowercase with `0x`. */
function addressHexAt(bytes: Buffer, i: number): string {
  return `0x${bytes.toString("hex", i * ADDRESS_BYTES, (i + 1) * ADDRESS_BYTES)}`;
}

export function unpackRows({ addresses, scores }: PackedRows): ScoreRow[] {
  const bytes = bytesOf(addresses);
  return Array.from(scores, (score, i) => ({
    address: addressHexAt(bytes, i),
    score,
  }));
}
