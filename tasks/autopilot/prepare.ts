import { ContractWatch } from "../contract/contract-watch.js";
import { hasFence } from "../contract/fence.js";
import { defined } from "../errors.js";
import type { AutopilotContext } from "./context.js";

/**
 * The autopilot's context from the contract and its signer: the signer's
 * address, whether the contract fences its finalization, and a watch of the
 * contract's writes from the head on.
 */
export async function prepareContext(
  base: Omit<AutopilotContext, "signerAddress" | "fenced" | "watch">,
): Promise<AutopilotContext> {
  const provider = defined(base.signer.provider, "the signer is connected");
  const signerAddress = await base.signer.getAddress();
  return {
    ...base,
    signerAddress,
    fenced: await hasFence(base.score),
    watch: new ContractWatch(
      provider,
      await base.score.getAddress(),
      signerAddress,
      await provider.getBlockNumber(),
    ),
  };
}
