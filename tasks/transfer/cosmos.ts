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
import { ERRORS } from "../error-catalog.js";
import { VipError, reasonOf } from "../errors.js";
import type { Journal } from "../journal/journal.js";
import { field, type Output } from "../output.js";
import {
  applyCosmosRecords,
  cosmosNextAction,
  cosmosStepState,
  type CosmosStepState,
  type SignedCosmosTx,
} from "./cosmos-step-state.js";
import type { TransferRecord } from "./records.js";

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
 * with its hash and bytes before the broadcast (`cosmos-signed`, the step's
 * `sending`), `sent` once the chain took it, `confirmed` with its block. A
 * restart branches on the step's next action: done, failed or refused as the
 * journal says; journalled as signed or sent, it is found by its hash, or
 * the very same bytes are sent again (which the chain takes at most once: the
 * sequence is in them). Waits for the block and returns the hash; a non-zero
 * code is `Tx failed <hash>` with the log.
 */
export async function runCosmosTx(
  context: CosmosContext,
  index: number,
  tx: CosmosTx,
): Promise<string> {
  const name = `tx${index}`;
  const transaction = cosmosStepState(context.journal.records, name);
  const next = cosmosNextAction(transaction);
  const at = async (): Promise<TxStep> => ({
    step: name,
    index,
    chainId: tx.chain_id,
    restUrl: await context.restUrl(tx.chain_id),
    transaction,
  });
  switch (next.action) {
    case "done":
      return next.hash;
    case "reverted":
      throw new VipError(ERRORS.NETWORK.COSMOS_TX.COSMOS_TX_FAILED, {
        hash: next.hash,
        log: next.log,
      });
    case "refused":
      throw new VipError(ERRORS.NETWORK.COSMOS_TX.COSMOS_TX_NOT_TAKEN, {
        n: index + 1,
        hash: next.hash,
        chainId: tx.chain_id,
        log: next.log,
      });
    case "send":
    case "resend": {
      const step = await at();
      return broadcastAndWait(
        context,
        step,
        await signAndJournal(context, step, tx),
      );
    }
    case "check-nonce":
    case "wait-for-receipt": {
      const step = await at();
      const resumed = await resume(context, step, next.signed);
      return "settled" in resumed
        ? resumed.settled
        : broadcastAndWait(context, step, resumed.resend);
    }
  }
}

/** Where a transaction is in the transfer. */
interface TxStep {
  /** Its journal step, `tx<index>`. */
  step: string;
  /** Its place among the route's transactions, from 0. */
  index: number;
  chainId: string;
  restUrl: string;
  /** Its state, as journalled: every append moves it on. */
  transaction: CosmosStepState;
}

/**
 * A first run: the transaction is signed and journalled with its bytes, then
 * the pre-broadcast check runs again (signing takes time).
 */
async function signAndJournal(
  context: CosmosContext,
  step: TxStep,
  tx: CosmosTx,
): Promise<SignedCosmosTx> {
  const { journal } = context;
  await context.beforeBroadcast();
  const signed = await sign(context, tx, step.restUrl, step.index);
  await applyCosmosRecords(journal, step.transaction, {
    type: "cosmos-signed",
    step: step.step,
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
      await applyCosmosRecords(journal, step.transaction, {
        type: "refused",
        step: step.step,
        hash: signed.hash,
        code: 0,
        log: `not sent: ${error.text}`,
      });
    throw error;
  }
  return signed;
}

/**
 * A restarted run, for a journalled transaction: found by its hash, or waited
 * for when its sequence is used, it is settled; else it is sent again, the
 * very same bytes, if the pre-broadcast check allows.
 */
async function resume(
  context: CosmosContext,
  step: TxStep,
  signed: SignedCosmosTx,
): Promise<{ settled: Promise<string> | string } | { resend: SignedCosmosTx }> {
  const { restUrl } = step;
  const found = await getTx(restUrl, signed.hash);
  if (found !== undefined)
    return { settled: recordInclusion(context, step, found) };
  const state = await accountInfo(restUrl, context.account.bech32);
  if (state !== undefined && state.sequence > signed.sequence) {
    // Its sequence is used: by this transaction (not indexed yet) or by
    // another one.
    return {
      settled: waitForInclusion(
        context,
        step,
        signed.hash,
        sequenceTaken(context, step.chainId, signed.hash, signed.sequence),
      ),
    };
  }
  try {
    await context.beforeBroadcast();
  } catch (error) {
    // The run before the restart may have broadcast it: it is called not sent
    // only once it had the time to land.
    if (!(error instanceof HookSequenceMoved)) throw error;
    return {
      settled: settleDoubtful(
        context,
        { ...step, hash: signed.hash, sequence: signed.sequence },
        error,
      ),
    };
  }
  context.out.line(
    field(
      "resending",
      `transaction ${step.index + 1} ${signed.hash}: the same signed bytes (the chain takes them at most once)`,
    ),
  );
  return { resend: signed };
}

/**
 * Broadcasts the signed bytes and waits for the block; a refusal is journalled
 * (nothing moved), unless the chain already has the transaction.
 */
async function broadcastAndWait(
  context: CosmosContext,
  step: TxStep,
  signed: SignedCosmosTx,
): Promise<string> {
  const { journal, out } = context;
  const { index, chainId, restUrl } = step;
  let answer: TxResult;
  try {
    answer = await broadcastTx(restUrl, signed.txBytes);
  } catch (error) {
    throw new VipError(ERRORS.NETWORK.COSMOS_TX.COSMOS_SEND_FAILED, {
      n: index + 1,
      hash: signed.hash,
      reason: reasonOf(error),
    });
  }
  if (answer.code !== 0 && answer.code !== ALREADY_KNOWN) {
    const found =
      answer.code === WRONG_SEQUENCE
        ? await getTx(restUrl, signed.hash)
        : undefined;
    if (found !== undefined) return recordInclusion(context, step, found);
    await applyCosmosRecords(journal, step.transaction, {
      type: "refused",
      step: step.step,
      hash: signed.hash,
      code: answer.code,
      log: `${chainId} refused it with code ${answer.code}: ${answer.log}`,
    });
    throw new VipError(ERRORS.NETWORK.COSMOS_TX.COSMOS_TX_REFUSED, {
      chainId,
      n: index + 1,
      hash: signed.hash,
      code: answer.code,
      log: answer.log,
    });
  }
  await applyCosmosRecords(journal, step.transaction, {
    type: "sent",
    step: step.step,
    nonce: Number(signed.sequence),
    hash: signed.hash,
  });
  out.line(
    field("broadcast", `transaction ${index + 1} ${signed.hash} on ${chainId}`),
  );
  return waitForInclusion(
    context,
    step,
    signed.hash,
    (seconds) =>
      new VipError(ERRORS.NETWORK.COSMOS_TX.COSMOS_TX_NOT_INCLUDED, {
        n: index + 1,
        hash: signed.hash,
        chainId,
        seconds,
      }),
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
    throw new VipError(ERRORS.NETWORK.COSMOS_TX.NO_COSMOS_ACCOUNT, {
      account: context.account.bech32,
      chainId: tx.chain_id,
    });
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
      `transaction ${index + 1} ${signed.hash} (account ${state.accountNumber}, ` +
        `sequence ${state.sequence}, fee ${feeText} for ${fee.gas} gas)`,
    ),
  );
  return { ...signed, sequence: state.sequence };
}

interface Doubtful extends TxStep {
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
  const { index, chainId, restUrl, hash, sequence } = doubtful;
  out.warn(
    `${moved.moved}, but transaction ${index + 1} ${hash} may have reached ${chainId} ` +
      "before the restart: it is not sent again, but waited for",
  );
  const found = await pollTx(
    restUrl,
    hash,
    context.pollMs,
    context.pollMs * MEMPOOL_POLLS,
  );
  if (found !== undefined) {
    out.warn(
      `transaction ${index + 1} ${hash} had reached ${chainId}: the transfer goes on, ` +
        `but its op hook will not run as signed (${moved.moved})`,
    );
    return recordInclusion(context, doubtful, found);
  }
  const state = await accountInfo(restUrl, context.account.bech32);
  if (state !== undefined && state.sequence > sequence) {
    return waitForInclusion(
      context,
      doubtful,
      hash,
      sequenceTaken(context, chainId, hash, sequence),
    );
  }
  await applyCosmosRecords(journal, doubtful.transaction, {
    type: "refused",
    step: doubtful.step,
    hash,
    code: 0,
    log: `not sent: ${moved.text}`,
  });
  throw moved;
}

/**
 * Why a journalled transaction whose sequence the chain has used is still not
 * found, after `seconds` of waiting. It is not journalled as unsent: a node
 * whose index lags would make that a second transfer. The operator is told how
 * to decide.
 */
function sequenceTaken(
  context: CosmosContext,
  chainId: string,
  hash: string,
  sequence: bigint,
): (seconds: number) => VipError {
  return (seconds) =>
    new VipError(ERRORS.NETWORK.COSMOS_TX.COSMOS_SEQUENCE_TAKEN, {
      sequence,
      account: context.account.bech32,
      chainId,
      hash,
      journal: context.journal.path,
      seconds,
    });
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

/**
 * Waits for the transaction to be in a block; `notFound` is the error, given
 * how many seconds were waited, when it is not.
 */
async function waitForInclusion(
  context: CosmosContext,
  step: TxStep,
  hash: string,
  notFound: (seconds: number) => VipError,
): Promise<string> {
  const found = await pollTx(
    step.restUrl,
    hash,
    context.pollMs,
    context.inclusionTimeoutMs,
  );
  if (found === undefined)
    throw notFound(Math.round(context.inclusionTimeoutMs / 1000));
  return recordInclusion(context, step, found);
}

/**
 * Journals the transaction found in a block as confirmed (with the chain's
 * log and the gas it used) and returns its hash, or throws its failure.
 */
async function recordInclusion(
  context: CosmosContext,
  step: TxStep,
  found: TxResult,
): Promise<string> {
  const { index } = step;
  await applyCosmosRecords(context.journal, step.transaction, {
    type: "confirmed",
    step: step.step,
    hash: found.hash,
    blockNumber: Number(found.height ?? 0n),
    gasUsed: (found.gasUsed ?? 0n).toString(),
    status: found.code === 0 ? 1 : 0,
    log: found.log,
  });
  if (found.code !== 0)
    throw new VipError(ERRORS.NETWORK.COSMOS_TX.COSMOS_TX_FAILED, {
      hash: found.hash,
      log: `${found.log} (code ${found.code})`,
    });
  context.out.line(
    field(
      "included",
      `transaction ${index + 1} ${found.hash} in block ${found.height ?? "?"}`,
    ),
  );
  return found.hash;
}
