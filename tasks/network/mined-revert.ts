import type { Provider } from "ethers";

import { safeText } from "../output.js";

/** The longest reason a node's revert may add to an error's message. */
const MAX_REASON_CHARS = 200;

/**
 * Why the mined transaction `hash` failed, as the end of an error's message
 * (": …"), or "" when it cannot be told. A receipt says only that it failed:
 * a transaction that used all its gas ran out of it; any other is replayed
 * as a call on the state after its block, which is what made it fail when
 * another transaction of that block came first (a stage finalized by
 * another host, say), and the revert that call gives is named:
 * `describe`'s words for a contract's own errors, else the node's reason.
 * Only ever a help: whatever fails here leaves the message as it was.
 */
export async function minedRevertReason(
  provider: Provider,
  hash: string,
  describe: (error: unknown) => string | undefined = () => undefined,
): Promise<string> {
  try {
    const [tx, receipt] = await Promise.all([
      provider.getTransaction(hash),
      provider.getTransactionReceipt(hash),
    ]);
    if (tx === null || receipt === null) return "";
    if (receipt.gasUsed >= tx.gasLimit)
      return `: it ran out of gas (it used all of its ${tx.gasLimit})`;
    try {
      await provider.call({
        to: tx.to,
        from: tx.from,
        data: tx.data,
        value: tx.value,
        gasLimit: tx.gasLimit,
        blockTag: receipt.blockNumber,
      });
      return "";
    } catch (error) {
      const reason = describe(error) ?? nodeReason(error);
      return reason === undefined
        ? ""
        : `: ${reason}, replayed on the state after block ${receipt.blockNumber}`;
    }
  } catch {
    return "";
  }
}

/**
 * The revert a node gave, printable: its reason (an `Error(string)` or a
 * panic, as ethers decodes them), else the selector of a contract's own
 * error this tool cannot name.
 */
function nodeReason(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const reason = "reason" in error ? error.reason : undefined;
  if (typeof reason === "string" && reason !== "")
    return `reverted: ${safeText(reason, MAX_REASON_CHARS)}`;
  const data = "data" in error ? error.data : undefined;
  return typeof data === "string" && /^0x[0-9a-fA-F]{8}/.test(data)
    ? `reverted with the contract's error ${data.slice(0, 10).toLowerCase()}`
    : undefined;
}
