import { Interface, type Provider } from "ethers";

import { safeText } from "../output.js";

/** The longest reason a revert may add to an error's message. */
const MAX_REASON_CHARS = 200;
/**
 * How long telling why may hold back the error it adds to: the node that
 * failed the transaction may be slow or gone.
 */
const WHY_TIMEOUT_MS = 10_000;

/** Solidity's own errors, `Error(string)` and `Panic(uint256)`, by selector. */
const BUILT_IN = Interface.from([]);

/**
 * Why the mined transaction `hash` failed, as the end of an error's message
 * (": …"), or "" when it cannot be told. A receipt says only that it failed:
 * the transaction is replayed as a call on the state after its block, which
 * is what made it fail when another transaction of that block came first (a
 * stage finalized by another host, say), and the revert that call gives is
 * named: `describe`'s words for a contract's own errors, else Solidity's
 * `Error(string)` or `Panic`, else the error's selector. With no revert, one
 * that used all its gas ran out of it. Always printable (the reason is the
 * chain's text, escaped and cut), and only ever a help: whatever fails here,
 * or takes longer than WHY_TIMEOUT_MS, leaves the message as it was.
 */
export async function minedRevertReason(
  provider: Pick<Provider, "getTransaction" | "getTransactionReceipt" | "call">,
  hash: string,
  describe: (error: unknown) => string | undefined = () => undefined,
  timeoutMs = WHY_TIMEOUT_MS,
): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(""), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([
      whyItFailed(provider, hash, describe).catch(() => ""),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function whyItFailed(
  provider: Parameters<typeof minedRevertReason>[0],
  hash: string,
  describe: (error: unknown) => string | undefined,
): Promise<string> {
  const [tx, receipt] = await Promise.all([
    provider.getTransaction(hash),
    provider.getTransactionReceipt(hash),
  ]);
  if (tx === null || receipt === null) return "";
  try {
    await provider.call({
      to: tx.to,
      from: tx.from,
      data: tx.data,
      value: tx.value,
      gasLimit: tx.gasLimit,
      blockTag: receipt.blockNumber,
    });
  } catch (error) {
    const reason = describe(error) ?? builtInReason(error);
    if (reason !== undefined)
      return `: ${safeText(reason, MAX_REASON_CHARS)}, replayed on the state after block ${receipt.blockNumber}`;
  }
  return receipt.gasUsed >= tx.gasLimit
    ? `: it ran out of gas (it used all of its ${tx.gasLimit})`
    : "";
}

/**
 * A revert in words from its data: Solidity's `Error(string)` and `Panic`
 * decoded, any other error by its selector (a contract's own, which only
 * its ABI names).
 */
function builtInReason(error: unknown): string | undefined {
  const data = findRevertData(error);
  if (data === undefined || data.length < 10) return undefined;
  try {
    const parsed = BUILT_IN.parseError(data);
    if (parsed !== null)
      return `${parsed.name}(${parsed.args
        .map((a) => (typeof a === "bigint" ? a.toString() : JSON.stringify(a)))
        .join(", ")})`;
  } catch {
    // Not one of Solidity's own, or not decodable: named by its selector.
  }
  return `reverted with the contract's error ${data.slice(0, 10).toLowerCase()}`;
}

/**
 * The revert data an error carries, wherever the provider put it (ethers'
 * `data`, a JSON-RPC error's `data` or `data.data`, or a cause's).
 */
export function findRevertData(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof error !== "object" || error === null)
    return undefined;
  const candidate = "data" in error ? error.data : undefined;
  if (isHexData(candidate)) return candidate;
  if (
    typeof candidate === "object" &&
    candidate !== null &&
    "data" in candidate &&
    isHexData(candidate.data)
  )
    return candidate.data;
  return (
    findRevertData("error" in error ? error.error : undefined, depth + 1) ??
    findRevertData("cause" in error ? error.cause : undefined, depth + 1)
  );
}

function isHexData(value: unknown): value is string {
  return typeof value === "string" && /^0x[0-9a-fA-F]*$/.test(value);
}
