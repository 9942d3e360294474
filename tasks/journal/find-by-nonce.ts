import type { Provider, TransactionResponse } from "ethers";

export type NonceLookup =
  | { state: "mined"; tx: TransactionResponse }
  | { state: "pending"; tx?: TransactionResponse }
  | { state: "unused" };

/**
 * What became of `from`'s transaction with `nonce`: mined (found by scanning
 * blocks back to `fromBlock`), pending (the node counts it but has not mined
 * it), or unused (it never reached the node).
 */
export async function findByNonce(
  provider: Provider,
  from: string,
  nonce: number,
  fromBlock: number,
): Promise<NonceLookup> {
  const mined = await provider.getTransactionCount(from, "latest");
  if (mined > nonce) {
    const latest = await provider.getBlockNumber();
    for (let n = latest; n >= fromBlock; n--) {
      const block = await provider.getBlock(n, true);
      const tx = block?.prefetchedTransactions.find(
        (t) => t.from.toLowerCase() === from.toLowerCase() && t.nonce === nonce,
      );
      if (tx !== undefined) return { state: "mined", tx };
    }
    // Mined before `fromBlock`: not a transaction of this run.
    return { state: "unused" };
  }
  const pending = await provider.getTransactionCount(from, "pending");
  if (pending > nonce) {
    const block = (await (
      provider as Provider & {
        send?: (m: string, p: unknown[]) => Promise<unknown>;
      }
    )
      .send?.("eth_getBlockByNumber", ["pending", true])
      .catch(() => null)) as {
      transactions?: { hash: string; from: string; nonce: string }[];
    } | null;
    const match = block?.transactions?.find(
      (t) =>
        typeof t === "object" &&
        t.from.toLowerCase() === from.toLowerCase() &&
        Number(t.nonce) === nonce,
    );
    const tx =
      match === undefined
        ? undefined
        : ((await provider.getTransaction(match.hash)) ?? undefined);
    return { state: "pending", tx };
  }
  return { state: "unused" };
}
