import { sleep } from "@nomicfoundation/hardhat-utils/lang";
import {
  accountInfo,
  broadcastTx,
  getTx,
  type TxResult,
} from "../clients/cosmos-tx.js";
import type { CosmosTx } from "../clients/router.js";
import { checkMsg } from "../cosmos/amino.js";
import { estimateFee } from "../cosmos/fees.js";
import { HookSequenceMoved } from "../cosmos/op-hook.js";
import { signCosmosTx } from "../cosmos/sign.js";
import type { CosmosAccount } from "../cosmos/types.js";
import { firstLine, VipError } from "../errors.js";
import type { Journal } from "../journal/journal.js";
import { field, type Output } from "../output.js";
import { recordsOf, type TransferRecord } from "./records.js";

/**
 * Codes a chain answers a broadcast with that mean the transaction is (or
 * already was) taken.
 */
const ALREADY_KNOWN = 19;
const WRONG_SEQUENCE = 32;
/**
 * Polls a restarted run gives a journalled transaction before it calls it never
 * sent: one the chain took before the kill sits in its mempool with the
 * account's next sequence and is in one of the next blocks (30 s at the default
 * poll interval outlasts several blocks).
 */
const MEMPOOL_POLLS = 30;

export interface CosmosContext {
  journal: Journal<TransferRecord>;
  account: CosmosAccount;
  /** The REST endpoint of an Initia chain, by chain id. */
  restUrl: (chainId: string) => Promise<string>;
  /**
   * Runs right before a transaction is first broadcast: the op hook's sequence
   * check. Its HookSequenceMoved means the transaction must never be sent; any
   * other failure leaves it to the next run.
   */
  beforeBroadcast: () => Promise<void>;
  out: Output;
  pollMs: number;
  /** How long to wait for a broadcast transaction to be in a block. */
  inclusionTimeoutMs: number;
}

/**
 * Runs one `cosmos_tx` of a route exactly once across restarts: it is signed
 * (fee simulated, account number and sequence from the chain) and journalled
 * with its hash and bytes before the broadcast; a restart finds it by that
 * hash, or sends the very same bytes again (which the chain takes at most once:
 * the sequence is in them). Waits for the block and returns the hash; a
 * non-zero code is `Tx failed <hash>` with the log.
 */
export async function runCosmosTx(
  context: CosmosContext,
  index: number,
  tx: CosmosTx,
): Promise<string> {
  const { journal, out } = context;
  const step = `tx${index}`;
  const mined = recordsOf(journal.records, "mined").find(
    (r) => r.step === step,
  );
  if (mined !== undefined) {
    if (mined.status !== 1)
      throw new VipError(`Tx failed ${mined.hash}: ${mined.log ?? ""}`);
    return mined.hash;
  }
  const refused = recordsOf(journal.records, "refused").find(
    (r) => r.step === step,
  );
  if (refused !== undefined) {
    throw new VipError(
      `transaction ${index + 1} ${refused.hash} on ${tx.chain_id} was not taken (${refused.log}); nothing moved. Run again with --new to start the transfer anew`,
    );
  }
  const restUrl = await context.restUrl(tx.chain_id);
  const journalled = recordsOf(journal.records, "cosmos-signed").find(
    (r) => r.step === step,
  );
  let signed: { hash: string; txBytes: Uint8Array; sequence: bigint };
  if (journalled !== undefined) {
    signed = {
      hash: journalled.hash,
      txBytes: Buffer.from(journalled.txBytes, "base64"),
      sequence: BigInt(journalled.sequence),
    };
    const found = await getTx(restUrl, signed.hash);
    if (found !== undefined)
      return recordInclusion(context, step, index, found);
    const state = await accountInfo(restUrl, context.account.bech32);
    if (state !== undefined && state.sequence > signed.sequence) {
      // Its sequence is used: by this transaction (not indexed yet) or by
      // another one.
      return waitForInclusion(
        context,
        step,
        index,
        restUrl,
        signed.hash,
        sequenceTaken(context, tx.chain_id, signed.hash, signed.sequence),
      );
    }
    try {
      await context.beforeBroadcast();
    } catch (error) {
      // The run before the restart may have broadcast it: it is called not sent
      // only once it had the time to land.
      if (!(error instanceof HookSequenceMoved)) throw error;
      return settleDoubtful(
        context,
        {
          step,
          index,
          chainId: tx.chain_id,
          restUrl,
          hash: signed.hash,
          sequence: signed.sequence,
        },
        error,
      );
    }
    out.line(
      field(
        "resending",
        `transaction ${index + 1} ${signed.hash}: the same signed bytes (the chain takes them at most once)`,
      ),
    );
  } else {
    await context.beforeBroadcast();
    signed = await sign(context, tx, restUrl, index);
    await journal.append({
      type: "cosmos-signed",
      step,
      chainId: tx.chain_id,
      signer: context.account.bech32,
      sequence: signed.sequence.toString(),
      hash: signed.hash,
      txBytes: Buffer.from(signed.txBytes).toString("base64"),
    });
    try {
      await context.beforeBroadcast();
    } catch (error) {
      // Signed but never sent, and never to be: the journal says so, so that
      // --new may start over. Any other failure (the hook's chain unreachable,
      // say) leaves the transaction to the next run.
      if (error instanceof HookSequenceMoved)
        await journal.append({
          type: "refused",
          step,
          hash: signed.hash,
          code: 0,
          log: `not sent: ${error.message}`,
        });
      throw error;
    }
  }
  let answer: TxResult;
  try {
    answer = await broadcastTx(restUrl, signed.txBytes);
  } catch (error) {
    throw new VipError(
      `transaction ${index + 1} ${signed.hash} failed when sent (${firstLine(error)}): it may have reached the chain; run the same command again, which finds it by its hash or sends the same bytes once`,
    );
  }
  if (answer.code !== 0 && answer.code !== ALREADY_KNOWN) {
    const found =
      answer.code === WRONG_SEQUENCE
        ? await getTx(restUrl, signed.hash)
        : undefined;
    if (found !== undefined)
      return recordInclusion(context, step, index, found);
    await journal.append({
      type: "refused",
      step,
      hash: signed.hash,
      code: answer.code,
      log: `${tx.chain_id} refused it with code ${answer.code}: ${answer.log}`,
    });
    throw new VipError(
      `${tx.chain_id} refused transaction ${index + 1} ${signed.hash} (code ${answer.code}: ${answer.log}); nothing moved. Run again with --new to start the transfer anew`,
    );
  }
  await journal.append({ type: "sent", step, hash: signed.hash });
  out.line(
    field(
      "broadcast",
      `transaction ${index + 1} ${signed.hash} on ${tx.chain_id}`,
    ),
  );
  return waitForInclusion(
    context,
    step,
    index,
    restUrl,
    signed.hash,
    `transaction ${index + 1} ${signed.hash} is not in a block on ${tx.chain_id}`,
  );
}

async function sign(
  context: CosmosContext,
  tx: CosmosTx,
  restUrl: string,
  index: number,
) {
  const msgs = tx.msgs.map((msg, j) =>
    checkMsg(msg, `transaction ${index + 1}, message ${j + 1}`),
  );
  const state = await accountInfo(restUrl, context.account.bech32);
  if (state === undefined)
    throw new VipError(
      `${context.account.bech32} has no account on ${tx.chain_id} (it has never received tokens there): nothing was signed`,
    );
  const fee = await estimateFee(
    restUrl,
    tx.chain_id,
    msgs,
    state.sequence,
    context.account.bech32,
  );
  const signed = await signCosmosTx({
    chainId: tx.chain_id,
    accountNumber: state.accountNumber,
    sequence: state.sequence,
    msgs,
    fee,
    account: context.account,
  });
  const feeText =
    fee.amount.length === 0
      ? "none"
      : fee.amount.map((c) => `${c.amount} ${c.denom}`).join(", ");
  context.out.line(
    field(
      "signed",
      `transaction ${index + 1} ${signed.hash} (account ${state.accountNumber}, sequence ${state.sequence}, fee ${feeText} for ${fee.gas} gas)`,
    ),
  );
  return { ...signed, sequence: state.sequence };
}

interface Doubtful {
  step: string;
  index: number;
  chainId: string;
  restUrl: string;
  hash: string;
  sequence: bigint;
}

/**
 * A journalled transaction, not found by its hash, that the pre-broadcast check
 * now forbids sending: the killed run may still have broadcast it. It is waited
 * for; found, it is the transfer's (the check's failure is then a warning); its
 * sequence used by something else, or nothing after the wait, it was never
 * sent, and the journal says so, so that --new may start over.
 */
async function settleDoubtful(
  context: CosmosContext,
  doubtful: Doubtful,
  moved: HookSequenceMoved,
): Promise<string> {
  const { out, journal } = context;
  const { step, index, chainId, restUrl, hash, sequence } = doubtful;
  out.warn(
    `${moved.moved}, but transaction ${index + 1} ${hash} may have reached ${chainId} before the restart: it is not sent again, but waited for`,
  );
  const found = await pollTx(
    restUrl,
    hash,
    context.pollMs,
    context.pollMs * MEMPOOL_POLLS,
  );
  if (found !== undefined) {
    out.warn(
      `transaction ${index + 1} ${hash} had reached ${chainId}: the transfer goes on, but its op hook will not run as signed (${moved.moved})`,
    );
    return recordInclusion(context, step, index, found);
  }
  const state = await accountInfo(restUrl, context.account.bech32);
  if (state !== undefined && state.sequence > sequence) {
    return waitForInclusion(
      context,
      step,
      index,
      restUrl,
      hash,
      sequenceTaken(context, chainId, hash, sequence),
    );
  }
  await journal.append({
    type: "refused",
    step,
    hash,
    code: 0,
    log: `not sent: ${moved.message}`,
  });
  throw moved;
}

/**
 * Why a journalled transaction whose sequence the chain has used is still not
 * found. It is not journalled as unsent: a node whose index lags would make
 * that a second transfer. The operator is told how to decide.
 */
function sequenceTaken(
  context: CosmosContext,
  chainId: string,
  hash: string,
  sequence: bigint,
): string {
  const account = context.account.bech32;
  return (
    `sequence ${sequence} of ${account} on ${chainId} was used, but not by ${hash} as far as the chain has indexed ` +
    `(if another transaction of ${account} took that sequence, ${hash} can never land: look up the account's transactions on an explorer, ` +
    `and only if ${hash} is not among them, move the journal ${context.journal.path} aside to start over)`
  );
}

/**
 * The transaction by its hash, asked every `pollMs` until `waitMs` have passed;
 * undefined if it never showed.
 */
async function pollTx(
  restUrl: string,
  hash: string,
  pollMs: number,
  waitMs: number,
): Promise<TxResult | undefined> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const found = await getTx(restUrl, hash);
    if (found !== undefined || Date.now() > deadline) return found;
    await sleep(pollMs / 1000);
  }
}

async function waitForInclusion(
  context: CosmosContext,
  step: string,
  index: number,
  restUrl: string,
  hash: string,
  notFound: string,
): Promise<string> {
  const found = await pollTx(
    restUrl,
    hash,
    context.pollMs,
    context.inclusionTimeoutMs,
  );
  if (found === undefined)
    throw new VipError(
      `${notFound} after ${Math.round(context.inclusionTimeoutMs / 1000)} s: run the same command again to keep waiting`,
    );
  return recordInclusion(context, step, index, found);
}

async function recordInclusion(
  context: CosmosContext,
  step: string,
  index: number,
  found: TxResult,
): Promise<string> {
  await context.journal.append({
    type: "mined",
    step,
    hash: found.hash,
    block: Number(found.height ?? 0n),
    status: found.code === 0 ? 1 : 0,
    log: found.log,
  });
  if (found.code !== 0)
    throw new VipError(
      `Tx failed ${found.hash}: ${found.log} (code ${found.code})`,
    );
  context.out.line(
    field(
      "included",
      `transaction ${index + 1} ${found.hash} in block ${found.height ?? "?"}`,
    ),
  );
  return found.hash;
}
