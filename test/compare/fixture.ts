import type { ScoreRow } from "../../tasks/scoring/score-rows.js";

/** The n-th test address: lowercase, 0x and 40 hex digits. */
export function addr(n: number): string {
  return `0x${n.toString(16).padStart(40, "0")}`;
}

/** A policy's answer as the computation hands it over: in address order. */
export function rows(scores: Record<string, bigint>): ScoreRow[] {
  return Object.entries(scores)
    .map(([address, score]) => ({ address, score }))
    .sort((a, b) => (a.address < b.address ? -1 : 1));
}

/**
 * A pseudo-random answer (a fixed seed: the same every run): `count`
 * addresses drawn from `0..space`, scores 0..max, some of them 0.
 */
export function randomAnswer(
  seed: bigint,
  count: number,
  space: number,
  max: bigint,
): Record<string, bigint> {
  let state = seed;
  const next = (): bigint => {
    state = (state * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
    return state >> 16n;
  };
  const answer: Record<string, bigint> = {};
  for (let i = 0; i < count; i++) {
    const address = addr(Number(next() % BigInt(space)));
    answer[address] = next() % 4n === 0n ? 0n : next() % max;
  }
  return answer;
}
