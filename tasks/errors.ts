import { HardhatPluginError } from "hardhat/plugins";

export const PLUGIN_ID = "hardhat-vip-score";

/** The first line of an error's message: enough to say what happened, in a warning or a wrapping error. */
export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split(
    "\n",
  )[0]!;
}

/**
 * An error the operator can act on. Hardhat prints its message without a stack trace and exits non-zero.
 * Messages never carry keys or full RPC URLs (those may embed API keys).
 */
export class VipError extends HardhatPluginError {
  constructor(message: string, cause?: Error) {
    super(PLUGIN_ID, message, cause);
  }
}
