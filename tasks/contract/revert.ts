import { VipScore__factory } from "../../types/ethers-contracts/index.js";

const iface = VipScore__factory.createInterface();

/**
 * A contract revert in words, e.g. `StageFinalized(15)`, from the revert data
 * an ethers error carries; undefined when the error is not a decodable revert
 * of the scoring contract.
 */
export function describeRevert(error: unknown): string | undefined {
  const data = findRevertData(error);
  if (data === undefined || data === "0x") return undefined;
  try {
    const parsed = iface.parseError(data);
    if (parsed === null) return undefined;
    return `${parsed.name}(${parsed.args.map((a) => String(a)).join(", ")})`;
  } catch {
    return undefined;
  }
}

function findRevertData(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof error !== "object" || error === null)
    return undefined;
  const candidate = (error as { data?: unknown }).data;
  if (typeof candidate === "string" && /^0x[0-9a-fA-F]*$/.test(candidate))
    return candidate;
  if (typeof candidate === "object" && candidate !== null) {
    const nested = (candidate as { data?: unknown }).data;
    if (typeof nested === "string" && /^0x[0-9a-fA-F]*$/.test(nested))
      return nested;
  }
  return (
    findRevertData((error as { error?: unknown }).error, depth + 1) ??
    findRevertData((error as { cause?: unknown }).cause, depth + 1)
  );
}
