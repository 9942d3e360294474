import type { VipScore } from "../../types/ethers-contracts/index.js";
import type { ScoreEntry } from "./entry.js";

/** Page size of `getScores`, as the VIP agent reads. */
export const READ_PAGE = 500n;

/** Every score of `stage` on chain, paged through `getScores` as the VIP agent does. */
export async function readStageScores(score: VipScore, stage: bigint): Promise<Map<string, bigint>> {
  const onChain = new Map<string, bigint>();
  for (let offset = 0n; ; offset += READ_PAGE) {
    const page = await score.getScores(stage, offset, READ_PAGE);
    for (const entry of page) onChain.set(entry.addr.toLowerCase(), entry.amount);
    if (BigInt(page.length) < READ_PAGE) return onChain;
  }
}

export interface Difference {
  address: string;
  line?: number;
  expected?: bigint;
  actual?: bigint;
}

/** The entries whose on-chain score differs from the file, and addresses on chain that the file lacks. */
export function compareScores(entries: ScoreEntry[], onChain: Map<string, bigint>): Difference[] {
  const differences: Difference[] = [];
  const inFile = new Set<string>();
  for (const entry of entries) {
    const key = entry.address.toLowerCase();
    inFile.add(key);
    const actual = onChain.get(key);
    if (actual !== entry.score) differences.push({ address: entry.address, line: entry.line, expected: entry.score, actual });
  }
  for (const [address, actual] of onChain) {
    if (!inFile.has(address)) differences.push({ address, actual });
  }
  return differences;
}
