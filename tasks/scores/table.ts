import { getAddress } from "ethers";

import { defined } from "../errors.js";

/** One entry of a score table, materialized on demand. */
export interface ScoreEntry {
  address: string;
  score: bigint;
  line: number;
}

const ADDRESS_BYTES = 20;
const EMPTY = -1;

/**
 * A validated score file, held in columns: 20 bytes of address, 8 of score and
 * 4 of line per entry, so a million entries take 32 MB instead of the ~150 MB
 * of objects. An open-addressing index over the address bytes finds duplicates
 * as rows stream in.
 */
export class ScoreTable {
  #addresses = new Uint8Array(ADDRESS_BYTES * 1024);
  #scores = new BigUint64Array(1024);
  #lines = new Uint32Array(1024);
  #slots = new Int32Array(2048).fill(EMPTY);
  #length = 0;

  get length(): number {
    return this.#length;
  }

  /**
   * Adds an entry; returns the line of an earlier entry with the same address
   * instead, if there is one.
   */
  add(
    address: Uint8Array,
    score: bigint,
    line: number,
  ): { duplicateOf: number } | undefined {
    let slot = this.#slotOf(address);
    for (;;) {
      const index = defined(
        this.#slots[slot],
        "a slot is masked to the index's size",
      );
      if (index === EMPTY) break;
      if (this.#sameAddress(index, address))
        return {
          duplicateOf: defined(
            this.#lines[index],
            "the slots hold indexes of the table",
          ),
        };
      slot = (slot + 1) & (this.#slots.length - 1);
    }
    if (this.#length === this.#scores.length) this.#grow();
    const index = this.#length++;
    this.#addresses.set(address, index * ADDRESS_BYTES);
    this.#scores[index] = score;
    this.#lines[index] = line;
    this.#slots[slot] = index;
    if (this.#length * 2 > this.#slots.length) this.#rehash();
    return undefined;
  }

  address(index: number): string {
    return getAddress(this.addressHex(index));
  }

  /** The lowercase 0x address, cheaper than the checksummed one. */
  addressHex(index: number): string {
    return (
      "0x" +
      Buffer.from(
        this.#addresses.buffer,
        this.#addresses.byteOffset + index * ADDRESS_BYTES,
        ADDRESS_BYTES,
      ).toString("hex")
    );
  }

  /**
   * How many of the address's 20 bytes are not zero (calldata prices zero bytes
   * lower).
   */
  nonZeroAddressBytes(index: number): number {
    let count = 0;
    for (let i = index * ADDRESS_BYTES; i < (index + 1) * ADDRESS_BYTES; i++)
      if (this.#addresses[i] !== 0) count++;
    return count;
  }

  score(index: number): bigint {
    return defined(this.#scores[index], "callers pass indexes of the table");
  }

  line(index: number): number {
    return defined(this.#lines[index], "callers pass indexes of the table");
  }

  entry(index: number): ScoreEntry {
    return {
      address: this.address(index),
      score: this.score(index),
      line: this.line(index),
    };
  }

  /**
   * Entries `start` to `end` (exclusive) as arrays ready for `updateScores`.
   */
  slice(start: number, end: number): { addresses: string[]; scores: bigint[] } {
    const addresses: string[] = [];
    const scores: bigint[] = [];
    for (let i = start; i < end; i++) {
      addresses.push(this.addressHex(i));
      scores.push(defined(this.#scores[i], "i runs within the table"));
    }
    return { addresses, scores };
  }

  /**
   * The address's 20 bytes, as a view into the table (no copy): valid until
   * the next `add`, which may move the columns.
   */
  addressBytes(index: number): Uint8Array {
    return this.#addresses.subarray(
      index * ADDRESS_BYTES,
      (index + 1) * ADDRESS_BYTES,
    );
  }

  /** The index of `address` (any case), or undefined. */
  indexOf(address: string): number | undefined {
    return this.indexOfBytes(Buffer.from(address.slice(2), "hex"));
  }

  /** The index of the address of these 20 bytes, or undefined. */
  indexOfBytes(bytes: Uint8Array): number | undefined {
    let slot = this.#slotOf(bytes);
    for (;;) {
      const index = defined(
        this.#slots[slot],
        "a slot is masked to the index's size",
      );
      if (index === EMPTY) return undefined;
      if (this.#sameAddress(index, bytes)) return index;
      slot = (slot + 1) & (this.#slots.length - 1);
    }
  }

  *entries(): Generator<ScoreEntry> {
    for (let i = 0; i < this.#length; i++) yield this.entry(i);
  }

  totalScore(): bigint {
    let total = 0n;
    for (let i = 0; i < this.#length; i++)
      total += defined(this.#scores[i], "i runs within the table");
    return total;
  }

  #slotOf(address: Uint8Array): number {
    // FNV-1a over the 20 bytes: vanity addresses share prefixes, so every byte
    // counts.
    let hash = 0x811c9dc5;
    for (let i = 0; i < ADDRESS_BYTES; i++)
      hash = Math.imul(
        hash ^ defined(address[i], "an address has 20 bytes"),
        0x01000193,
      );
    return (hash >>> 0) & (this.#slots.length - 1);
  }

  #sameAddress(index: number, address: Uint8Array): boolean {
    const base = index * ADDRESS_BYTES;
    for (let i = 0; i < ADDRESS_BYTES; i++)
      if (this.#addresses[base + i] !== address[i]) return false;
    return true;
  }

  #grow(): void {
    const capacity = this.#scores.length * 2;
    const addresses = new Uint8Array(capacity * ADDRESS_BYTES);
    addresses.set(this.#addresses);
    const scores = new BigUint64Array(capacity);
    scores.set(this.#scores);
    const lines = new Uint32Array(capacity);
    lines.set(this.#lines);
    [this.#addresses, this.#scores, this.#lines] = [addresses, scores, lines];
  }

  #rehash(): void {
    this.#slots = new Int32Array(this.#slots.length * 2).fill(EMPTY);
    const mask = this.#slots.length - 1;
    for (let index = 0; index < this.#length; index++) {
      let slot = this.#slotOf(
        this.#addresses.subarray(
          index * ADDRESS_BYTES,
          (index + 1) * ADDRESS_BYTES,
        ),
      );
      while (this.#slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      this.#slots[slot] = index;
    }
  }
}
