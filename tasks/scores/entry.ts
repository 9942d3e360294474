import { getAddress, ZeroAddress } from "ethers";

/** One validated line of a score file. */
export interface ScoreEntry {
  address: string;
  score: bigint;
  line: number;
}

export interface ScoreProblem {
  line: number;
  message: string;
}

export const MAX_UINT64 = 2n ** 64n - 1n;

/**
 * The checksummed address, or what is wrong with `raw`. All-lowercase and all-uppercase hex carry no
 * checksum and are accepted; mixed case must match EIP-55.
 */
export function checkAddress(raw: string): { address: string } | { problem: string } {
  const text = raw.trim();
  if (text === "") return { problem: "address is empty" };
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) return { problem: `address "${text}" is not 0x followed by 40 hex digits` };
  const checksummed = getAddress(text.toLowerCase());
  const body = text.slice(2);
  const mixedCase = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixedCase && text !== checksummed) {
    return { problem: `address ${text} has a bad checksum (expected ${checksummed})` };
  }
  if (checksummed === ZeroAddress) return { problem: "address is the zero address, which the contract skips" };
  return { address: checksummed };
}

/** The score as a uint64, or what is wrong with `raw`. */
export function checkScore(raw: string): { score: bigint } | { problem: string } {
  const text = raw.trim();
  if (text === "") return { problem: "score is empty" };
  if (/^-\s*\d/.test(text)) return { problem: `score ${text} is negative` };
  if (!/^\d+$/.test(text)) return { problem: `score "${text}" is not a whole number` };
  const score = BigInt(text);
  if (score > MAX_UINT64) return { problem: `score ${text} exceeds the uint64 maximum ${MAX_UINT64}` };
  return { score };
}

/**
 * Collects entries and problems line by line: both checks, then duplicates (case-insensitive),
 * naming the line the address first appeared on.
 */
export class EntryCollector {
  readonly entries: ScoreEntry[] = [];
  readonly problems: ScoreProblem[] = [];
  readonly #firstLine = new Map<string, number>();

  add(line: number, rawAddress: string, rawScore: string): void {
    const address = checkAddress(rawAddress);
    const score = checkScore(rawScore);
    if ("problem" in address) this.problem(line, address.problem);
    if ("problem" in score) this.problem(line, score.problem);
    if (!("address" in address) || !("score" in score)) return;
    const key = address.address.toLowerCase();
    const first = this.#firstLine.get(key);
    if (first !== undefined) {
      this.problem(line, `address ${address.address} is a duplicate of line ${first}`);
      return;
    }
    this.#firstLine.set(key, line);
    this.entries.push({ address: address.address, score: score.score, line });
  }

  problem(line: number, message: string): void {
    this.problems.push({ line, message });
  }
}
