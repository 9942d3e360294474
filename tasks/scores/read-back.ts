import type { VipScore } from "../../types/ethers-contracts/index.js";
import { VipError } from "../errors.js";
import { CHANGED, NEW, SAME } from "./gas-model.js";
import type { ScoreTable } from "./table.js";

/** Page size of the read-back: VipScore's `MAX_PAGE_LIMIT`, twice the VIP agent's 500, so half the calls. */
export const READ_PAGE = 1000n;
/** Pages asked for at once: enough to keep the node busy between answers, few enough to leave it room. */
const PARALLEL_PAGES = 4;

/**
 * Calls `visit` with every score of `stage` on chain (lowercase address, score), in no particular order. The
 * stage's `scoreCount` says how many pages there are, so pages are read several at a time; each page is
 * decoded straight from the return data (three words per entry), and nothing is kept, so memory does not grow
 * with the stage.
 */
export async function forEachStageScore(score: VipScore, stage: bigint, visit: (address: string, score: bigint) => void): Promise<void> {
  const count = await score.scoreCount(stage);
  const runner = score.runner?.provider;
  if (runner === undefined || runner === null) throw new VipError("the scoring contract has no provider to read through");
  const to = await score.getAddress();
  let next = 0n;
  const worker = async () => {
    while (next < count) {
      const offset = next;
      next += READ_PAGE;
      const data = score.interface.encodeFunctionData("getScores", [stage, offset, READ_PAGE]);
      decodePage(await runner.call({ to, data }), visit);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_PAGES }, worker));
}

/** `getScores`'s return data: an offset word, a length word, then (addr, amount, index) words per entry. */
function decodePage(result: string, visit: (address: string, score: bigint) => void): void {
  const hex = result.startsWith("0x") ? result.slice(2) : result;
  const length = Number.parseInt(hex.slice(64, 128), 16);
  if (!Number.isSafeInteger(length) || hex.length < 128 + length * 192) throw new VipError(`getScores returned ${hex.length / 2} bytes, too few for its ${length} entries`);
  for (let i = 0, at = 128; i < length; i++, at += 192) {
    visit("0x" + hex.slice(at + 24, at + 64), BigInt("0x" + hex.slice(at + 64, at + 128)));
  }
}

/** Every score of `stage` on chain (lowercase address → score). Memory grows with the stage: for tests and small stages. */
export async function readStageScores(score: VipScore, stage: bigint): Promise<Map<string, bigint>> {
  const onChain = new Map<string, bigint>();
  await forEachStageScore(score, stage, (address, amount) => onChain.set(address, amount));
  return onChain;
}

/**
 * What each entry of the table would do on chain now: write a new address, change a score, or write the
 * score the chain already holds (one byte per entry). A stage with no scores is not read at all.
 */
export async function entryKinds(score: VipScore, stage: bigint, table: ScoreTable): Promise<Uint8Array> {
  const kinds = new Uint8Array(table.length).fill(NEW);
  await forEachStageScore(score, stage, (address, amount) => {
    const i = table.indexOf(address);
    if (i !== undefined) kinds[i] = amount === table.score(i) ? SAME : CHANGED;
  });
  return kinds;
}

export interface Difference {
  address: string;
  /** The file's line, for entries of the file. */
  line?: number;
  expected: bigint;
  /** Undefined when the address was never scored on chain. */
  actual?: bigint;
}

/**
 * Reads the stage and lists where the chain does not hold exactly the file: entries whose score differs or
 * is missing (in file order), then addresses scored on chain but absent from the file with a non-zero score
 * (absent means zero). Memory: one byte per entry, plus the differences.
 */
export async function compareWithChain(score: VipScore, stage: bigint, table: ScoreTable): Promise<Difference[]> {
  const seen = new Uint8Array(table.length);
  const differing: number[] = [];
  const strangers: Difference[] = [];
  const onChainScore = new Map<number, bigint>();
  await forEachStageScore(score, stage, (address, actual) => {
    const i = table.indexOf(address);
    if (i === undefined) {
      if (actual !== 0n) strangers.push({ address, expected: 0n, actual });
      return;
    }
    seen[i] = 1;
    if (actual !== table.score(i)) {
      differing.push(i);
      onChainScore.set(i, actual);
    }
  });
  for (let i = 0; i < table.length; i++) if (seen[i] === 0) differing.push(i);
  differing.sort((a, b) => a - b);
  const inFile = differing.map((i) => ({ address: table.address(i), line: table.line(i), expected: table.score(i), actual: onChainScore.get(i) }));
  return [...inFile, ...strangers.sort((a, b) => a.address.localeCompare(b.address))];
}

export function describeDifference(d: Difference, file: string): string {
  const where = d.line === undefined ? `${d.address} (not in ${file})` : `${file}:${d.line}: ${d.address}`;
  return `${where}: file ${d.expected}, chain ${d.actual === undefined ? "never scored" : d.actual}`;
}
