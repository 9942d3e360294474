import type { Provider } from "ethers";

/**
 * The first block at or after time `t` among blocks 0…`head`, or `head + 1`
 * when none is: a bisection over block timestamps, which never decrease along
 * a chain. `timeOf` reads a block's own timestamp (and may cache).
 */
export async function firstBlockAtOrAfter(
  timeOf: (block: bigint) => Promise<bigint>,
  t: bigint,
  head: bigint,
): Promise<bigint> {
  let lo = 0n;
  let hi = head + 1n;
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if ((await timeOf(mid)) >= t) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}

/**
 * The first block of `provider`'s chain at or after time `t` (unix seconds),
 * or the head + 1 when none is yet.
 */
export async function blockAtOrAfterTime(
  provider: Provider,
  t: bigint,
): Promise<number> {
  const head = BigInt(await provider.getBlockNumber());
  const found = await firstBlockAtOrAfter(
    async (n) => {
      const block = await provider.getBlock(Number(n));
      // A block the node does not have (pruned) counts as before `t`.
      return block === null ? -1n : BigInt(block.timestamp);
    },
    t,
    head,
  );
  return Number(found);
}
