import type { RankedEntry } from "./model.js";
import type { StageRanks } from "./ranks.js";
import { byScoreThenAddress, compareAddresses, rankedEntry } from "./top.js";
import { eip55 } from "../scores/checksum.js";
import { Leaders } from "../scores/leaders.js";
import type { ScoreTable } from "../scores/table.js";

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
  gone: { address: string; score: bigint }[];
  goneCount: number;
  /** Both: the biggest change (either way) first, ties by address. */
  moves: Move[];
  movedCount: number;
}

/** A row of the current stage and its row in the previous one. */
interface Pair {
  now: number;
  before: number;
}

const abs = (value: bigint): bigint => (value < 0n ? -value : value);

/**
 * The changes from the `previous` stage's table to the `current` one's,
 * each list cut to its first `shown`. Rows are paired through the tables'
 * own address index and only the leaders are kept, as row numbers: no
 * object per address.
 */
export function stageChanges(
  previousStage: bigint,
  previous: ScoreTable,
  current: ScoreTable,
  ranks: StageRanks,
  shown: number,
): StageChanges {
  const added = new Leaders<number>(shown, byScoreThenAddress(current));
  const delta = (pair: Pair): bigint =>
    current.score(pair.now) - previous.score(pair.before);
  const moves = new Leaders<Pair>(shown, (a, b) => {
    const [x, y] = [abs(delta(a)), abs(delta(b))];
    if (x !== y) return x > y ? -1 : 1;
    return compareAddresses(current, a.now, current, b.now);
  });
  let [addedCount, movedCount] = [0, 0];
  for (let now = 0; now < current.length; now++) {
    const before = previous.indexOfBytes(current.addressBytes(now));
    if (before === undefined) {
      addedCount += 1;
      added.offer(now);
    } else if (previous.score(before) !== current.score(now)) {
      movedCount += 1;
      moves.offer({ now, before });
    }
  }
  const gone = goneRows(previous, current, shown);
  return {
    previous: previousStage,
    added: added.list().map((index) => rankedEntry(current, index, ranks)),
    addedCount,
    gone: gone.rows.map((index) => ({
      address: eip55(previous.addressHex(index).slice(2)),
      score: previous.score(index),
    })),
    goneCount: gone.count,
    moves: moves.list().map((pair) => ({
      address: eip55(current.addressHex(pair.now).slice(2)),
      before: previous.score(pair.before),
      after: current.score(pair.now),
      delta: delta(pair),
    })),
    movedCount,
  };
}

/** The previous stage's rows the current one lacks: the highest first. */
function goneRows(
  previous: ScoreTable,
  current: ScoreTable,
  shown: number,
): { rows: number[]; count: number } {
  const gone = new Leaders<number>(shown, byScoreThenAddress(previous));
  let count = 0;
  for (let before = 0; before < previous.length; before++)
    if (current.indexOfBytes(previous.addressBytes(before)) === undefined) {
      count += 1;
      gone.offer(before);
    }
  return { rows: gone.list(), count };
}
