import type { UserInterruptionHooks } from "hardhat/types/hooks";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";

/**
 * Stores `secret` in Hardhat's keystore under `name` by running
 * hardhat-keystore's own `keystore set`, with the value handed to its secret
 * prompt by a hook handler instead of typed: the secret never reaches a
 * terminal, an argument or a file in clear. The keystore's password prompts
 * still go to the operator (none for the development keystore).
 */
export async function storeInKeystore(
  hre: HardhatRuntimeEnvironment,
  name: string,
  secret: string,
  options: { dev: boolean; force: boolean },
): Promise<void> {
  let handedOver = false;
  const handlers: Partial<UserInterruptionHooks> = {
    requestSecretInput: async (context, interruptor, description, next) => {
      if (
        interruptor === "hardhat-keystore" &&
        /^Enter secret to store/.test(description)
      ) {
        handedOver = true;
        return secret;
      }
      return next(context, interruptor, description);
    },
  };
  hre.hooks.registerHandlers("userInterruptions", handlers);
  const exitCodeBefore = process.exitCode;
  try {
    await hre.tasks
      .getTask(["keystore", "set"])
      .run({ key: name, force: options.force, dev: options.dev });
  } finally {
    hre.hooks.unregisterHandlers("userInterruptions", handlers);
  }
  // `keystore set` reports a bad name or an existing key by setting the exit
  // code, not by throwing.
  if (process.exitCode === 1 && exitCodeBefore !== 1) {
    process.exitCode = exitCodeBefore;
    throw new VipError(ERRORS.CONTRACT.ACCOUNTS.KEYSTORE_REFUSED, { name });
  }
  if (!handedOver)
    throw new VipError(ERRORS.CONTRACT.ACCOUNTS.KEYSTORE_NOT_ASKED, { name });
}
