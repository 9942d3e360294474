import type { StageWindow } from "../clients/stage-window.js";
import type { BlockHeader, RollupReader } from "../indexer/rpc.js";

/**
 * The rollup blocks of a stage: those whose own timestamp lies in the base
 * chain's window `[start, end)`. `closed` once the rollup has a block at or
 * after the end; until then the range runs to the head.
 */
export interface StageBlocks {
  first: BlockHeader | undefined;
  last: BlockHeader;
  /** first.number, or last.number + 1 when no block is in the window yet. */
  firstNumber: bigint;
  closed: boolean;
}

/**
 * Finds the stage's blocks by bisection over block timestamps (a chain's
 * timestamps never decrease).
 */
export async function stageBlocks(
  reader: RollupReader,
  window: StageWindow,
  head: bigint,
): Promise<StageBlocks> {
  const cache = new Map<bigint, BlockHeader>();
  const at = async (n: bigint): Promise<BlockHeader> => {
    let header = cache.get(n);
    if (header === undefined) {
      header = await reader.existingBlock(
        n,
        "finding the stage's blocks by their timestamps",
      );
      cache.set(n, header);
    }
    return header;
  };
  /** The first block whose time is at or after `t`, or head + 1. */
  const firstAtOrAfter = async (t: bigint): Promise<bigint> => {
    let lo = 0n;
    let hi = head + 1n;
    while (lo < hi) {
      const mid = (lo + hi) / 2n;
      if ((await at(mid)).time >= t) hi = mid;
      else lo = mid + 1n;
    }
    return lo;
  };
  const firstNumber = await firstAtOrAfter(window.start);
  const endNumber = await firstAtOrAfter(window.end);
  const closed = endNumber <= head;
  const lastNumber = closed ? endNumber - 1n : head;
  return {
    first: firstNumber <= lastNumber ? await at(firstNumber) : undefined,
    last: await at(lastNumber),
    firstNumber,
    closed,
  };
}
