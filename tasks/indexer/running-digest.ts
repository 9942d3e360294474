import { sha256 } from "@noble/hashes/sha2.js";

/** Bytes a row adds to a source's digest: its SHA-256 in hex. */
const ROW_HASH_BYTES = 64;

/**
 * The fields of @noble/hashes' SHA-256 (2.3.0, pinned) that hold its state
 * between blocks: the eight words, the bytes hashed, and the bytes waiting
 * for a block. Read and set here only; `test/indexer/running-digest.test.ts`
 * checks a resumed hash against Node's.
 */
interface Sha256Internals {
  get(): number[];
  set(...words: number[]): void;
  length: number;
  pos: number;
  update(data: Uint8Array): unknown;
  digest(): Uint8Array;
  clone(): Sha256Internals;
}

const encoder = new TextEncoder();

/**
 * A source's digest (SHA-256 over its row hashes in chain order, see
 * `digestRows`) that can stop after any row and go on in another process:
 * every row adds exactly one 64-byte block, so between rows the hash is
 * wholly its eight words and the number of rows. The index keeps that state
 * as it writes (`digest_states`), and a stage's digest goes on from the last
 * state at or before its last block instead of from the first row.
 */
export class RunningDigest {
  readonly #hash: Sha256Internals;
  #rows: number;

  private constructor(hash: Sha256Internals, rows: number) {
    this.#hash = hash;
    this.#rows = rows;
  }

  /** The digest of no rows yet. */
  static start(): RunningDigest {
    return new RunningDigest(sha256.create() as unknown as Sha256Internals, 0);
  }

  /** The digest after `rows` rows, from the state `state()` gave then. */
  static resume(state: string, rows: number): RunningDigest {
    if (!/^[0-9a-f]{64}$/.test(state) || !Number.isSafeInteger(rows))
      throw new Error(`not a digest state: ${state.slice(0, 80)} (${rows})`);
    const hash = sha256.create() as unknown as Sha256Internals;
    const words: number[] = [];
    for (let i = 0; i < 8; i++)
      words.push(Number.parseInt(state.slice(8 * i, 8 * i + 8), 16) | 0);
    hash.set(...words);
    hash.length = rows * ROW_HASH_BYTES;
    return new RunningDigest(hash, rows);
  }

  /** Rows hashed so far. */
  get rows(): number {
    return this.#rows;
  }

  /** Adds rows: their hashes, in hex, concatenated in chain order. */
  update(rowHashes: string): void {
    if (rowHashes.length % ROW_HASH_BYTES !== 0)
      throw new Error(
        `row hashes of ${rowHashes.length} characters: not whole rows`,
      );
    if (rowHashes.length === 0) return;
    this.#hash.update(encoder.encode(rowHashes));
    this.#rows += rowHashes.length / ROW_HASH_BYTES;
  }

  /** The state after the rows so far, as `resume` takes it (64 hex digits). */
  state(): string {
    // Whole rows only: nothing waits in the hash's buffer between them.
    if (this.#hash.pos !== 0) throw new Error("a digest stopped inside a row");
    return this.#hash
      .get()
      .map((word) => (word >>> 0).toString(16).padStart(8, "0"))
      .join("");
  }

  /** The digest of the rows so far, in hex; the state goes on unchanged. */
  hex(): string {
    return Buffer.from(this.#hash.clone().digest()).toString("hex");
  }
}
