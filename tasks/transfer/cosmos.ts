import { accountInfo, broadcastTx, getTx, type TxResult } from "../clients/cosmos-tx.js";
import type { CosmosTx } from "../clients/router.js";
import { checkMsg } from "../cosmos/amino.js";
import { estimateFee } from "../cosmos/fees.js";
import { signCosmosTx } from "../cosmos/sign.js";
import type { CosmosAccount } from "../cosmos/types.js";
import { firstLine, VipError } from "../errors.js";
import type { Journal } from "../journal/journal.js";
import { field, type Output } from "../output.js";
import { recordsOf, type TransferRecord } from "./records.js";

/** Codes a chain answers a broadcast with that mean the transaction is (or already was) taken. */
const ALREADY_KNOWN = 19;
const WRONG_SEQUENCE = 32;

export interface CosmosContext {
  journal: Journal<TransferRecord>;
  account: CosmosAccount;
  /** The REST endpoint of an Initia chain, by chain id. */
  restUrl: (chainId: string) => Promise<string>;
  /** Runs right before a transaction is first broadcast (the op hook's sequence check). */
  beforeBroadcast: () => Promise<void>;
  out: Output;
  pollMs: number;
  /** How long to wait for a broadcast transaction to be in a block. */
  inclusionTimeoutMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one `cosmos_tx` of a route exactly once across restarts: it is signed (fee simulated, account number
 * and sequence from the chain) and journalled with its hash and bytes before the broadcast; a restart finds
 * it by that hash, or sends the very same bytes again (which the chain takes at most once: the sequence is
 * in them). Waits for the block and returns the hash; a non-zero code is `Tx failed <hash>` with the log.
 */
export async function runCosmosTx(context: CosmosContext, index: number, tx: CosmosTx): Promise<string> {
  const { journal, out } = context;
  const step = `tx${index}`;
  const mined = recordsOf(journal.records, "mined").find((r) => r.step === step);
  if (mined !== undefined) {
    if (mined.status !== 1) throw new VipError(`Tx failed ${mined.hash}: ${mined.log ?? ""}`);
    return mined.hash;
  }
  const refused = recordsOf(journal.records, "refused").find((r) => r.step === step);
  if (refused !== undefined) {
    throw new VipError(`transaction ${index + 1} ${refused.hash} on ${tx.chain_id} was not taken (${refused.log}); nothing moved. Run again with --new to start the transfer anew`);
  }
  const restUrl = await context.restUrl(tx.chain_id);
  const journalled = recordsOf(journal.records, "cosmos-signed").find((r) => r.step === step);
  let signed: { hash: string; txBytes: Uint8Array; sequence: bigint };
  if (journalled !== undefined) {
    signed = { hash: journalled.hash, txBytes: Buffer.from(journalled.txBytes, "base64"), sequence: BigInt(journalled.sequence) };
    const found = await getTx(restUrl, signed.hash);
    if (found !== undefined) return recordInclusion(context, step, index, found);
    const state = await accountInfo(restUrl, context.account.bech32);
    if (state !== undefined && state.sequence > signed.sequence) {
      // Its sequence is used: by this transaction (not indexed yet) or by another one.
      return waitForInclusion(context, step, index, restUrl, signed.hash, `sequence ${signed.sequence} of ${context.account.bech32} on ${tx.chain_id} was used, but not by ${signed.hash} as far as the chain has indexed`);
    }
    out.line(field("resending", `transaction ${index + 1} ${signed.hash}: the same signed bytes (the chain takes them at most once)`));
  } else {
    await context.beforeBroadcast();
    signed = await sign(context, tx, restUrl, index);
    await journal.append({ type: "cosmos-signed", step, chainId: tx.chain_id, signer: context.account.bech32, sequence: signed.sequence.toString(), hash: signed.hash, txBytes: Buffer.from(signed.txBytes).toString("base64") });
  }
  try {
    await context.beforeBroadcast();
  } catch (error) {
    // Signed but never sent: the journal says so, so that --new may start over.
    await journal.append({ type: "refused", step, hash: signed.hash, code: 0, log: `not sent: ${firstLine(error)}` });
    throw error;
  }
  let answer: TxResult;
  try {
    answer = await broadcastTx(restUrl, signed.txBytes);
  } catch (error) {
    throw new VipError(`transaction ${index + 1} ${signed.hash} failed when sent (${firstLine(error)}): it may have reached the chain; run the same command again, which finds it by its hash or sends the same bytes once`);
  }
  if (answer.code !== 0 && answer.code !== ALREADY_KNOWN) {
    const found = answer.code === WRONG_SEQUENCE ? await getTx(restUrl, signed.hash) : undefined;
    if (found !== undefined) return recordInclusion(context, step, index, found);
    await journal.append({ type: "refused", step, hash: signed.hash, code: answer.code, log: `${tx.chain_id} refused it with code ${answer.code}: ${answer.log}` });
    throw new VipError(`${tx.chain_id} refused transaction ${index + 1} ${signed.hash} (code ${answer.code}: ${answer.log}); nothing moved. Run again with --new to start the transfer anew`);
  }
  await journal.append({ type: "sent", step, hash: signed.hash });
  out.line(field("broadcast", `transaction ${index + 1} ${signed.hash} on ${tx.chain_id}`));
  return waitForInclusion(context, step, index, restUrl, signed.hash, `transaction ${index + 1} ${signed.hash} is not in a block on ${tx.chain_id}`);
}

async function sign(context: CosmosContext, tx: CosmosTx, restUrl: string, index: number) {
  const msgs = tx.msgs.map((msg, j) => checkMsg(msg, `transaction ${index + 1}, message ${j + 1}`));
  const state = await accountInfo(restUrl, context.account.bech32);
  if (state === undefined) throw new VipError(`${context.account.bech32} has no account on ${tx.chain_id} (it has never received tokens there): nothing was signed`);
  const fee = await estimateFee(restUrl, tx.chain_id, msgs, state.sequence, context.account.bech32);
  const signed = await signCosmosTx({ chainId: tx.chain_id, accountNumber: state.accountNumber, sequence: state.sequence, msgs, fee, account: context.account });
  const feeText = fee.amount.length === 0 ? "none" : fee.amount.map((c) => `${c.amount} ${c.denom}`).join(", ");
  context.out.line(field("signed", `transaction ${index + 1} ${signed.hash} (account ${state.accountNumber}, sequence ${state.sequence}, fee ${feeText} for ${fee.gas} gas)`));
  return { ...signed, sequence: state.sequence };
}

async function waitForInclusion(context: CosmosContext, step: string, index: number, restUrl: string, hash: string, notFound: string): Promise<string> {
  const deadline = Date.now() + context.inclusionTimeoutMs;
  for (;;) {
    const found = await getTx(restUrl, hash);
    if (found !== undefined) return recordInclusion(context, step, index, found);
    if (Date.now() > deadline) throw new VipError(`${notFound} after ${Math.round(context.inclusionTimeoutMs / 1000)} s: run the same command again to keep waiting`);
    await sleep(context.pollMs);
  }
}

async function recordInclusion(context: CosmosContext, step: string, index: number, found: TxResult): Promise<string> {
  await context.journal.append({ type: "mined", step, hash: found.hash, block: Number(found.height ?? 0n), status: found.code === 0 ? 1 : 0, log: found.log });
  if (found.code !== 0) throw new VipError(`Tx failed ${found.hash}: ${found.log} (code ${found.code})`);
  context.out.line(field("included", `transaction ${index + 1} ${found.hash} in block ${found.height ?? "?"}`));
  return found.hash;
}
