import { createSHA256, type IHasher } from "hash-wasm";

/** Bytes a row adds to a source's digest: its SHA-256 in hex. */
const ROW_HASH_BYTES = 64;

/**
 * Where hash-wasm (4.13.0, pinned) keeps a SHA-256's state in what `save()`
 * gives: a 4-byte mark of its build, the 64-byte block buffer, the bytes
 * hashed (64-bit little-endian), the eight words (32-bit little-endian),
 * then its own trailer. Read and written here only; the index keeps the
 * state in SHA-256's own terms (the eight words, big-endian, and the rows),
 * so another implementation reads it too. `test/indexer/digest-states.test.ts`
 * checks a resumed hash against Node's.
 */
const SAVED = { length: 116, bytes: 68, words: 76 } as const;

/**
 * A source's digest (SHA-256 over its row hashes in chain order, see
 * `digestRows`) that can stop after any row and go on in another process:
 * every row adds exactly one 64-byte block, so between rows the hash is
 * wholly its eight words and the number of rows. Computations keep that
 * state in the index (`digest_states`), and a later digest goes on from the
 * last state at or before its last block instead of from the first row.
 * WebAssembly: some three times the speed of a JavaScript SHA-256, which a
 * 10,000,000-row stage paid some 4 s for; Node's own cannot give its state.
 */
export class RunningDigest {
  readonly #hash: IHasher;
  #rows: number;

  private constructor(hash: IHasher, rows: number) {
    this.#hash = hash;
    this.#rows = rows;
  }

  /** The digest of no rows yet. */
  static async start(): Promise<RunningDigest> {
    const hash = await createSHA256();
    hash.init();
    return new RunningDigest(hash, 0);
  }

  /** The digest after `rows` rows, from the state `state()` gave then. */
  static async resume(state: string, rows: number): Promise<RunningDigest> {
    if (!/^[0-9a-f]{64}$/.test(state) || !Number.isSafeInteger(rows))
      throw new Error(`not a digest state: ${state.slice(0, 80)} (${rows})`);
    const hash = await createSHA256();
    hash.init();
    const saved = hash.save();
    if (saved.length !== SAVED.length)
      throw new Error(
        `hash-wasm saves ${saved.length} bytes, not ${SAVED.length}`,
      );
    const view = new DataView(saved.buffer, saved.byteOffset, saved.length);
    view.setBigUint64(SAVED.bytes, BigInt(rows * ROW_HASH_BYTES), true);
    for (let i = 0; i < 8; i++)
      view.setUint32(
        SAVED.words + 4 * i,
        Number.parseInt(state.slice(8 * i, 8 * i + 8), 16),
        true,
      );
    hash.load(saved);
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
    this.#hash.update(rowHashes);
    this.#rows += rowHashes.length / ROW_HASH_BYTES;
  }

  /** The state after the rows so far, as `resume` takes it (64 hex digits). */
  state(): string {
    const saved = this.#hash.save();
    const view = new DataView(saved.buffer, saved.byteOffset, saved.length);
    // Whole rows only: the hash has hashed every byte it was given.
    if (
      view.getBigUint64(SAVED.bytes, true) !==
      BigInt(this.#rows * ROW_HASH_BYTES)
    )
      throw new Error("hash-wasm's saved state is not laid out as expected");
    let words = "";
    for (let i = 0; i < 8; i++)
      words += view
        .getUint32(SAVED.words + 4 * i, true)
        .toString(16)
        .padStart(8, "0");
    return words;
  }

  /** The digest of the rows so far, in hex; the state goes on unchanged. */
  hex(): string {
    const saved = this.#hash.save();
    const digest = this.#hash.digest("hex");
    this.#hash.load(saved);
    return digest;
  }
}
