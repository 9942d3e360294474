import { VipScore__factory } from "../../types/ethers-contracts/index.js";

const iface = VipScore__factory.createInterface();

/** A revert of the scoring contract: its error's name and arguments. */
export interface Revert {
  /** The contract error's name, e.g. `StageFinalized`. */
  revert: string;
  /** Its arguments in words, comma-separated, e.g. `15`. */
  args: string;
}

/**
 * The contract revert an ethers error carries, decoded from its revert data;
 * undefined when the error is not a decodable revert of the scoring contract.
 */
export function decodeRevert(error: unknown): Revert | undefined {
  const data = findRevertData(error);
  if (data === undefined || data === "0x") return undefined;
  try {
    const parsed = iface.parseError(data);
    if (parsed === null) return undefined;
    return {
      revert: parsed.name,
      args: parsed.args.map((a) => String(a)).join(", "),
    };
  } catch {
    return undefined;
  }
}

/**
 * A contract revert in words, e.g. `StageFinalized(15)`; undefined as
 * `decodeRevert`.
 */
export function describeRevert(error: unknown): string | undefined {
  const revert = decodeRevert(error);
  return revert === undefined ? undefined : `${revert.revert}(${revert.args})`;
}

function findRevertData(error: unknown, depth = 0): string | undefined {
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
