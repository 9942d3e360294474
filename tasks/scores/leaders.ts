/**
 * The first `size` of a stream in an order (`before(a, b)` is negative when
 * `a` comes first), kept as the stream goes by: memory bounded by `size`,
 * whatever the stream's length. The order must be total (ties broken, by
 * address here) so the leaders do not depend on the stream's order.
 */
export class Leaders<T> {
  readonly #kept: T[] = [];

  readonly #size: number;
  readonly #before: (a: T, b: T) => number;

  constructor(size: number, before: (a: T, b: T) => number) {
    this.#size = size;
    this.#before = before;
  }

  offer(item: T): void {
    const last = this.#kept[this.#kept.length - 1];
    if (this.#kept.length >= this.#size) {
      if (last === undefined || this.#before(item, last) >= 0) return;
      this.#kept.pop();
    }
    this.#kept.splice(this.#placeOf(item), 0, item);
  }

  /** The leaders, first first. */
  list(): T[] {
    return [...this.#kept];
  }

  /** Where `item` goes among those kept: after every one that comes before it. */
  #placeOf(item: T): number {
    let low = 0;
    let high = this.#kept.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.#before(this.#kept[middle] as T, item) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** Addresses in text order: the tie-break of every ordering here. */
function byAddress(a: { address: string }, b: { address: string }): number {
  return a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
}

/** Larger first, ties by address. */
export function largerFirst<T extends { address: string }>(
  key: (item: T) => bigint,
): (a: T, b: T) => number {
  return (a, b) => {
    const [x, y] = [key(a), key(b)];
    return x !== y ? (x > y ? -1 : 1) : byAddress(a, b);
  };
}
