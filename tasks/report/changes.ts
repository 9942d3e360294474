import type { RankedEntry } from "./model.js";

/** An address scored in both stages, with a different score. */
interface Move {
  address: string;
  before: bigint;
  after: bigint;
  /** `after - before`. */
  delta: bigint;
}

/** What changed from the previous stage in the folder. */
export interface StageChanges {
  previous: bigint;
  /** Scored now, not before: the highest first. */
  added: RankedEntry[];
  addedCount: number;
  /** Scored before, not now: the highest earlier score first. */
  gone: RankedEntry[];
  goneCount: number;
  /** Both: the biggest change (either way) first, ties by address. */
  moves: Move[];
  movedCount: number;
}

const abs = (value: bigint): bigint => (value < 0n ? -value : value);

/**
 * The changes from `previous` to `current` (each ranked, highest first),
 * each list cut to its first `shown`.
 */
export function stageChanges(
  previousStage: bigint,
  previous: RankedEntry[],
  current: RankedEntry[],
  shown: number,
): StageChanges {
  const key = (entry: RankedEntry): string => entry.address.toLowerCase();
  const before = new Map(previous.map((entry) => [key(entry), entry]));
  const now = new Set(current.map(key));
  const added = current.filter((entry) => !before.has(key(entry)));
  const gone = previous.filter((entry) => !now.has(key(entry)));
  const moves: Move[] = [];
  for (const entry of current) {
    const earlier = before.get(key(entry));
    if (earlier === undefined || earlier.score === entry.score) continue;
    moves.push({
      address: entry.address,
      before: earlier.score,
      after: entry.score,
      delta: entry.score - earlier.score,
    });
  }
  moves.sort((a, b) => {
    const [x, y] = [abs(a.delta), abs(b.delta)];
    if (x !== y) return x > y ? -1 : 1;
    const [p, q] = [a.address.toLowerCase(), b.address.toLowerCase()];
    return p < q ? -1 : p > q ? 1 : 0;
  });
  return {
    previous: previousStage,
    added: added.slice(0, shown),
    addedCount: added.length,
    gone: gone.slice(0, shown),
    goneCount: gone.length,
    moves: moves.slice(0, shown),
    movedCount: moves.length,
  };
}
