import type { ScoredWindow } from "./target.js";
import type { BlockHeader, RollupReader } from "../indexer/rpc.js";
import { firstBlockAtOrAfter } from "../network/block-search.js";

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
  window: Pick<ScoredWindow, "start" | "end">,
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
  const firstAtOrAfter = (t: bigint) =>
    firstBlockAtOrAfter(async (n) => (await at(n)).time, t, head);
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
