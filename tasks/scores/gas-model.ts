import type { ScoreTable } from "./table.js";
import { MARKER_BYTES } from "../contract/push-marker.js";

/**
 * What an entry does to the chain: decides its gas. Unknown entries count as
 * new, the dearest kind.
 */
export const NEW = 0;
export const CHANGED = 1;
export const SAME = 2;
export type EntryKind = typeof NEW | typeof CHANGED | typeof SAME;

// VipScore's `updateScores` cost, measured on Hardhat's simulated network (EVM
// Osaka rules) and rounded up so the model is an upper bound of the gas limit a
// batch needs: test/contract/gas-model.test.ts holds it to the contract's real
// gas for batches of every kind and size, so a change to the contract that
// breaks it fails CI.
const TX_BASE = 21_000n;
/** Dispatch, the permission and stage checks, the stage record's update. */
const CALL_BASE = 10_700n;
/**
 * The stage record's first write (zero to non-zero). Counted always: one 17,100
 * too many per batch at worst.
 */
const FIRST_WRITE = 17_100n;
/**
 * One SSTORE2 chunk of addresses: the CREATE, its record, the 1/64 of gas a
 * CREATE holds back.
 */
const PER_CHUNK = 56_000n;
/**
 * A new address in a chunk: its slot (zero to non-zero), its event, 20 bytes of
 * chunk code and their 1/64.
 */
const PER_NEW_IN_CHUNK = 28_710n;
/**
 * A new address when a call appends fewer than MIN_CHUNK: a slot for its score
 * and one for its key.
 */
const PER_NEW_IN_SLOT = 47_020n;
/**
 * A new score for an address already scored: a non-zero to non-zero store and
 * the event.
 */
const PER_CHANGED = 7_460n;
/**
 * The score the address already has: a no-op store (which still needs its
 * 2,300-gas stipend) and the event.
 */
const PER_SAME = 4_670n;
/** `_MIN_CHUNK_LENGTH` and `_MAX_CHUNK_LENGTH` of VipScore.sol. */
const MIN_CHUNK = 4;
const MAX_CHUNK = 1228;
/**
 * Calldata: the selector, the stage, two offsets, two lengths (164 bytes, at
 * most 28 of them non-zero), and the push's marker (`push-marker.ts`), counted
 * as if every byte of it were non-zero.
 */
const HEAD_CALLDATA = 4n * 164n + 12n * 28n + 16n * BigInt(MARKER_BYTES);

/**
 * Calldata gas of one entry: two words, 4 gas a byte and 12 more for each
 * non-zero byte.
 */
function entryCalldata(table: ScoreTable, index: number): bigint {
  let nonZero = table.nonZeroAddressBytes(index);
  for (let score = table.score(index); score > 0n; score >>= 8n)
    if ((score & 0xffn) !== 0n) nonZero++;
  return 4n * 64n + 12n * BigInt(nonZero);
}

const PER_ENTRY: Record<EntryKind, bigint> = {
  [NEW]: PER_NEW_IN_CHUNK,
  [CHANGED]: PER_CHANGED,
  [SAME]: PER_SAME,
};

/**
 * The gas limit `updateScores` needs for a batch, built up entry by entry so
 * the sizer can stop where a budget is reached. New entries switch from slots
 * to a chunk at the fourth, as the contract does.
 */
export class BatchGas {
  #entries = 0n;
  #newCount = 0;
  #calldata = HEAD_CALLDATA;

  readonly #table: ScoreTable;

  constructor(table: ScoreTable) {
    this.#table = table;
  }

  add(index: number, kind: EntryKind): void {
    this.#calldata += entryCalldata(this.#table, index);
    if (kind === NEW) this.#newCount++;
    this.#entries += PER_ENTRY[kind];
  }

  get total(): bigint {
    const fixed = TX_BASE + CALL_BASE + FIRST_WRITE + this.#calldata;
    if (this.#newCount === 0) return fixed + this.#entries;
    if (this.#newCount < MIN_CHUNK)
      return (
        fixed +
        this.#entries +
        BigInt(this.#newCount) * (PER_NEW_IN_SLOT - PER_NEW_IN_CHUNK)
      );
    return (
      fixed +
      this.#entries +
      BigInt(Math.ceil(this.#newCount / MAX_CHUNK)) * PER_CHUNK
    );
  }
}

/** The model's gas for these entries of a table. */
export function predictGas(
  table: ScoreTable,
  indexes: readonly number[],
  kindOf: (index: number) => EntryKind,
): bigint {
  const gas = new BatchGas(table);
  for (const i of indexes) gas.add(i, kindOf(i));
  return gas.total;
}
