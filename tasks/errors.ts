import { assertHardhatInvariant } from "@nomicfoundation/hardhat-errors";
import { HardhatPluginError } from "hardhat/plugins";

import { printable } from "./output.js";

export const PLUGIN_ID = "hardhat-vip-score";

/**
 * The first line of an error's message: enough to say what happened, in a
 * warning or a wrapping error.
 */
export function firstLine(error: unknown): string {
  return defined(
    (error instanceof Error ? error.message : String(error)).split("\n")[0],
    "(error instanceof Error ? error.message : String(error))....",
  );
}

/**
 * An error the operator can act on. Hardhat prints its message without a stack
 * trace and exits non-zero. Messages never carry keys or full RPC URLs (those
 * may embed API keys).
 */
export class VipError extends HardhatPluginError {
  constructor(message: string, cause?: Error) {
    // Parts of a message may come from elsewhere (a node, a policy, an
    // API): whatever was missed where they were put in prints as text.
    super(PLUGIN_ID, printable(message), cause);
  }
}

/**
 * The value the caller knows is there (an index in range, a group its pattern
 * always captures): where that knowledge is wrong, Hardhat's internal error
 * names the expression at once, instead of a TypeError later.
 */
export function defined<T>(value: T | null | undefined, what: string): T {
  assertHardhatInvariant(
    value !== undefined && value !== null,
    `${what} is missing`,
  );
  return value;
}
