import { eip55, matchesEip55 } from "./checksum.js";
import { ScoreTable } from "./table.js";

export interface ScoreProblem {
  line: number;
  message: string;
}

const MAX_UINT64 = 2n ** 64n - 1n;

/**
 * Problems kept to report; past this, only the count grows, so a broken
 * million-line file stays small.
 */
const KEPT_PROBLEMS = 1000;

/**
 * The address as 20 bytes, or what is wrong with `raw`. All-lowercase and
 * all-uppercase hex carry no checksum and are accepted; mixed case must match
 * EIP-55 (the only case that costs a keccak). One pass over the digits: a
 * million-line file spends most of its reading time here.
 */
function checkAddress(
  raw: string,
): { bytes: Uint8Array } | { problem: string } {
  const text = raw.trim();
  if (text === "") return { problem: "address is empty" };
  if (
    text.length !== 42 ||
    text.charCodeAt(0) !== 0x30 ||
    text.charCodeAt(1) !== 0x78
  )
    return notHex(text);
  const bytes = new Uint8Array(20);
  let lower = false;
  let upper = false;
  let nonZero = 0;
  let high = 0;
  for (let i = 0; i < 40; i++) {
    const code = text.charCodeAt(i + 2);
    let digit: number;
    if (code >= 0x30 && code <= 0x39) digit = code - 0x30;
    else if (code >= 0x61 && code <= 0x66) {
      digit = code - 0x57;
      lower = true;
    } else if (code >= 0x41 && code <= 0x46) {
      digit = code - 0x37;
      upper = true;
    } else return notHex(text);
    if ((i & 1) === 0) high = digit << 4;
    else bytes[i >> 1] = high | digit;
    nonZero |= digit;
  }
  if (lower && upper && !matchesEip55(text.slice(2)))
    return {
      problem: `address ${text} has a bad checksum (expected ${eip55(text.slice(2).toLowerCase())})`,
    };
  if (nonZero === 0)
    return { problem: "address is the zero address, which the contract skips" };
  return { bytes };
}

function notHex(text: string): { problem: string } {
  return { problem: `address "${text}" is not 0x followed by 40 hex digits` };
}

/** The score as a uint64, or what is wrong with `raw`. */
function checkScore(raw: string): { score: bigint } | { problem: string } {
  const text = raw.trim();
  if (text === "") return { problem: "score is empty" };
  if (/^-\s*\d/.test(text)) return { problem: `score ${text} is negative` };
  if (!/^\d+$/.test(text))
    return { problem: `score "${text}" is not a whole number` };
  const score = BigInt(text);
  if (score > MAX_UINT64)
    return {
      problem: `score ${text} exceeds the uint64 maximum ${MAX_UINT64}`,
    };
  return { score };
}

/**
 * Collects a file's entries into a `ScoreTable` and its problems, line by line.
 */
export class EntryCollector {
  readonly table = new ScoreTable();
  readonly problems: ScoreProblem[] = [];
  problemCount = 0;

  add(line: number, rawAddress: string, rawScore: string): void {
    const address = checkAddress(rawAddress);
    const score = checkScore(rawScore);
    if ("problem" in address) this.problem(line, address.problem);
    if ("problem" in score) this.problem(line, score.problem);
    if (!("bytes" in address) || !("score" in score)) return;
    const duplicate = this.table.add(address.bytes, score.score, line);
    if (duplicate !== undefined) {
      this.problem(
        line,
        `address ${rawAddress.trim()} is a duplicate of line ${duplicate.duplicateOf}`,
      );
    }
  }

  problem(line: number, message: string): void {
    this.problemCount++;
    if (this.problems.length < KEPT_PROBLEMS)
      this.problems.push({ line, message });
  }
}
