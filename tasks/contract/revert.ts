import { VipScore__factory } from "../../types/ethers-contracts/index.js";
import { findRevertData } from "../network/mined-revert.js";
import { safeText } from "../output.js";

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
      // A built-in Error(string) carries the node's text: printed safe.
      args: safeText(parsed.args.map((a) => String(a)).join(", "), 200),
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
