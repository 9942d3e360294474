/** What a new block showed, as the push sees it. */
export interface BlockObservation {
  gasUsed: bigint;
  gasLimit: bigint;
  /**
   * Whether batches were ready to go while the window was full when the block
   * appeared: the push, not the chain, held them back.
   */
  heldBack: boolean;
}

/** A block at least this full counts as full (gas per mille). */
const FULL_PER_MILLE = 900n;

/**
 * How many batches the push keeps awaiting their receipts, following what the
 * chain shows: a block that is not full while batches were held back means the
 * node's pool ran dry between blocks, so the window grows by a block's worth;
 * a node that refuses a send for a full pool means too many, so the window
 * halves and stays below that size from then on. Pure: no I/O, no clock.
 */
export class InFlightWindow {
  #size: number;
  #ceiling: number;
  readonly #floor: number;
  readonly #step: number;

  /**
   * @param perBlock batches that fill one block.
   * @param maxBlocks how many blocks' worth the window may grow to.
   */
  constructor(perBlock: number, maxBlocks = 8) {
    this.#step = Math.max(1, perBlock);
    this.#floor = Math.max(2, this.#step);
    // Two blocks' worth: the block being built and the next one.
    this.#size = Math.max(2, 2 * this.#step);
    this.#ceiling = Math.max(this.#size, maxBlocks * this.#step);
  }

  get size(): number {
    return this.#size;
  }

  /** A new block: grow when it was not full and batches were held back. */
  observe(block: BlockObservation): void {
    const full = block.gasUsed * 1000n >= block.gasLimit * FULL_PER_MILLE;
    if (!full && block.heldBack)
      this.#size = Math.min(this.#ceiling, this.#size + this.#step);
  }

  /**
   * The node refused a send for having too many pending: halve, and never grow
   * back to where it refused.
   */
  refused(): void {
    this.#ceiling = Math.max(this.#floor, this.#size - 1);
    this.#size = Math.max(this.#floor, Math.floor(this.#size / 2));
  }
}

/** Geth's and Cosmos mempools' wordings of a full pool (a node's text). */
const POOL_FULL =
  /txpool is full|mempool is full|too many (pending|transactions)|exceeds .*(pool|queue)|pool .*(full|limit)/i;

/**
 * A send refused because the node's pool is full (or the sender has too many
 * pending).
 */
export function isPoolFull(error: unknown): boolean {
  return POOL_FULL.test(String(error instanceof Error ? error.message : error));
}
