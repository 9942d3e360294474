import type { ContractTransactionReceipt, ContractTransactionResponse } from "ethers";

import { VipError } from "../errors.js";
import { describeRevert } from "./revert.js";

/**
 * Sends through `send` and waits for the receipt. A refused send names the contract's revert reason;
 * a receipt whose status is not success is the error `Tx failed <hash>`.
 */
export async function sendAndConfirm(
  what: string,
  send: () => Promise<ContractTransactionResponse>,
): Promise<ContractTransactionReceipt> {
  let tx: ContractTransactionResponse;
  try {
    tx = await send();
  } catch (error) {
    throw refused(what, error);
  }
  let receipt: ContractTransactionReceipt | null;
  try {
    receipt = await tx.wait();
  } catch (error) {
    const reason = describeRevert(error);
    throw new VipError(`Tx failed ${tx.hash}${reason === undefined ? "" : `: ${reason}`}`, error instanceof Error ? error : undefined);
  }
  if (receipt === null || receipt.status !== 1) throw new VipError(`Tx failed ${tx.hash}`);
  return receipt;
}

/** An error for a call the node refused before sending (estimate or send), with the revert reason if any. */
export function refused(what: string, error: unknown): VipError {
  const reason = describeRevert(error);
  const detail = reason ?? (error instanceof Error ? error.message.split("\n")[0] : String(error));
  return new VipError(`${what} was refused by the node, nothing was sent: ${detail}`, error instanceof Error ? error : undefined);
}
