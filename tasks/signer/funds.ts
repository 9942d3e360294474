import { formatEther, type Provider } from "ethers";

import { ERRORS } from "../error-catalog.js";
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
    throw new VipError(ERRORS.CONTRACT.ACCOUNTS.INSUFFICIENT_FUNDS, {
      signer,
      what,
      balance: formatEther(balance),
      balanceWei: balance,
      cost: formatEther(cost),
      costWei: cost,
    });
  }
}
