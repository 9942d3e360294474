import { formatEther, type Provider } from "ethers";

import { VipError } from "../errors.js";

/**
 * Refuses, before anything is sent, a signer whose balance cannot pay `cost`
 * (gas × fee, plus any value): the node's own refusal ("Sender doesn't have
 * enough funds") names no sender and comes mid-run.
 */
export async function ensureFunds(
  provider: Provider,
  signer: string,
  cost: bigint,
  what: string,
): Promise<void> {
  const balance = await provider.getBalance(signer);
  if (balance < cost) {
    throw new VipError(
      `the signer ${signer} cannot pay for ${what}: its balance is ${formatEther(balance)} (${balance} wei), ` +
        `the cost is up to ${formatEther(cost)} (${cost} wei). Fund it and run the same command again; nothing was sent`,
    );
  }
}
