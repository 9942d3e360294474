import { Contract, type Provider, type Signer } from "ethers";

import type { EvmTx } from "../clients/router.js";
import {
  maxCost,
  refused,
  transactionOverrides,
  withMargin,
} from "../contract/confirm.js";
import { ERRORS } from "../error-catalog.js";
import { VipError, reasonOf } from "../errors.js";
import { recordsOf, type TransferRecord } from "./records.js";
import { findByNonce } from "../journal/find-by-nonce.js";
import type { Journal } from "../journal/journal.js";
import { isTransient } from "../network/retry.js";
import { field, type Output } from "../output.js";
import { ensureFunds } from "../signer/funds.js";

const ERC20 = [
  "function allowance(address owner, address spender) view returns (uint256)",
  "function approve(address spender, uint256 amount) returns (bool)",
];

export interface EvmContext {
  journal: Journal<TransferRecord>;
  signer: Signer;
  from: string;
  provider: Provider;
  chainId: bigint;
  out: Output;
}

/**
 * Runs one `evm_tx` of a route: each ERC-20 approval it needs (exactly the
 * amount, only when the allowance is short), then the transaction; each sent
 * once across restarts. Returns the transaction's hash.
 */
export async function runEvmTx(
  context: EvmContext,
  index: number,
  tx: EvmTx,
): Promise<string> {
  for (const [j, approval] of tx.required_erc20_approvals.entries()) {
    const step = `tx${index}-approve${j}`;
    if (!journalled(context, step)) {
      const token = new Contract(
        approval.token_contract,
        ERC20,
        context.provider,
      );
      const allowance = (await token.getFunction("allowance")(
        context.from,
        approval.spender,
      )) as bigint;
      if (allowance >= BigInt(approval.amount)) {
        context.out.line(
          field(
            "approval",
            `${approval.token_contract} already allows ${approval.spender} ${allowance} (≥ ${approval.amount})`,
          ),
        );
        continue;
      }
    }
    const data = new Contract(
      approval.token_contract,
      ERC20,
    ).interface.encodeFunctionData("approve", [
      approval.spender,
      BigInt(approval.amount),
    ]);
    const hash = await sendOnce(
      context,
      step,
      { to: approval.token_contract, data, value: 0n },
      `approve ${approval.amount} to ${approval.spender}`,
    );
    context.out.line(
      field(
        "approved",
        `${approval.amount} of ${approval.token_contract} to ${approval.spender} in ${hash}`,
      ),
    );
  }
  const data = tx.data.startsWith("0x") ? tx.data : `0x${tx.data}`;
  const hash = await sendOnce(
    context,
    `tx${index}`,
    { to: tx.to, data, value: BigInt(tx.value === "" ? "0" : tx.value) },
    `transaction ${index + 1}`,
  );
  context.out.line(field("sent", `transaction ${index + 1} ${hash}, mined`));
  return hash;
}

function journalled(context: EvmContext, step: string): boolean {
  return recordsOf(context.journal.records, "sending").some(
    (r) => r.step === step,
  );
}

/**
 * Sends `call` as `step` exactly once, whatever restarts happen: the nonce is
 * journalled before the send, the hash after; a restart looks the step up (by
 * hash, or by its nonce when the hash never got written) and sends again only
 * what never reached the node, with the same nonce. Waits for the receipt.
 */
async function sendOnce(
  context: EvmContext,
  step: string,
  call: { to: string; data: string; value: bigint },
  what: string,
): Promise<string> {
  const { journal, provider } = context;
  const mined = recordsOf(journal.records, "mined").find(
    (r) => r.step === step,
  );
  if (mined !== undefined) {
    if (mined.status !== 1)
      throw new VipError(ERRORS.NETWORK.EVM_TX.EVM_TX_FAILED, {
        hash: mined.hash,
      });
    return mined.hash;
  }
  let hash = recordsOf(journal.records, "sent").find(
    (r) => r.step === step,
  )?.hash;
  const sending = recordsOf(journal.records, "sending").find(
    (r) => r.step === step,
  );
  if (hash === undefined && sending !== undefined) {
    const found = await findByNonce(
      provider,
      sending.from,
      sending.nonce,
      sending.fromBlock,
    );
    if (found.state !== "unused" && found.tx !== undefined) {
      if (
        found.tx.to?.toLowerCase() !== sending.to.toLowerCase() ||
        found.tx.data.toLowerCase() !== sending.data.toLowerCase()
      ) {
        throw new VipError(ERRORS.NETWORK.EVM_TX.NONCE_USED_BY_OTHER, {
          nonce: sending.nonce,
          from: sending.from,
          hash: found.tx.hash,
          what,
          journal: journal.path,
        });
      }
      hash = found.tx.hash;
      await journal.append({ type: "sent", step, hash });
    } else if (found.state === "pending") {
      throw new VipError(ERRORS.NETWORK.EVM_TX.NONCE_PENDING, {
        nonce: sending.nonce,
        from: sending.from,
      });
    }
  }
  if (hash === undefined)
    hash = await broadcast(context, step, call, what, sending?.nonce);
  const receipt = await provider.waitForTransaction(hash, 1, 10 * 60_000);
  if (receipt === null)
    throw new VipError(ERRORS.NETWORK.EVM_TX.EVM_TX_NOT_MINED, { what, hash });
  await journal.append({
    type: "mined",
    step,
    hash,
    block: receipt.blockNumber,
    status: receipt.status ?? 0,
  });
  if (receipt.status !== 1)
    throw new VipError(ERRORS.NETWORK.EVM_TX.EVM_TX_FAILED, { hash });
  return hash;
}

async function broadcast(
  context: EvmContext,
  step: string,
  call: { to: string; data: string; value: bigint },
  what: string,
  nonce?: number,
): Promise<string> {
  const { journal, provider, signer, from } = context;
  let gas: bigint;
  try {
    gas = await provider.estimateGas({ from, ...call });
  } catch (error) {
    throw refused(what, error);
  }
  const overrides = await transactionOverrides(provider, withMargin(gas));
  await ensureFunds(provider, from, maxCost(overrides) + call.value, what);
  const useNonce =
    nonce ?? (await provider.getTransactionCount(from, "pending"));
  await journal.append({
    type: "sending",
    step,
    chainId: context.chainId.toString(),
    from,
    nonce: useNonce,
    to: call.to,
    data: call.data,
    value: call.value.toString(),
    fromBlock: await provider.getBlockNumber(),
  });
  try {
    const response = await signer.sendTransaction({
      ...call,
      ...overrides,
      nonce: useNonce,
      chainId: context.chainId,
    });
    await journal.append({ type: "sent", step, hash: response.hash });
    return response.hash;
  } catch (error) {
    // The send may have reached the node: the next run finds it by its nonce
    // rather than sending twice.
    const hint = isTransient(error) ? "it may have reached the node; " : "";
    throw new VipError(ERRORS.NETWORK.EVM_TX.EVM_SEND_FAILED, {
      what,
      reason: reasonOf(error),
      hint,
    });
  }
}
