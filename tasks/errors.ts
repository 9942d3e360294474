import { HardhatPluginError } from "hardhat/plugins";

export const PLUGIN_ID = "hardhat-vip-score";

/**
 * An error the operator can act on. Hardhat prints its message without a stack trace and exits non-zero.
 * Messages never carry keys or full RPC URLs (those may embed API keys).
 */
export class VipError extends HardhatPluginError {
  constructor(message: string, cause?: Error) {
    super(PLUGIN_ID, message, cause);
  }
}
