import { formatEther, type Provider } from "ethers";

import type { EvmTx, MsgsResponse, Route, RouterClient } from "../../clients/router.js";
import { SUCCESS_STATE } from "../../clients/router.js";
import { VipError } from "../../errors.js";
import type { Journal } from "../../journal/journal.js";
import { field, type Output } from "../../output.js";
import type { OperatorSigner } from "../../signer/signer.js";
import { describeRoute } from "../../transfer/describe.js";
import { runEvmTx } from "../../transfer/evm.js";
import { describeEnd, followToTheEnd, trackOnce } from "../../transfer/follow.js";
import { addressList, checkTransactions, msgsRequest, withHook } from "../../transfer/plan.js";
import { recordsOf, type TransferIntent, type TransferRecord } from "../../transfer/records.js";

export interface TransferContext {
  router: RouterClient;
  journal: Journal<TransferRecord>;
  signer: OperatorSigner;
  provider: Provider;
  chainId: bigint;
  out: Output;
  /** Asks the operator to confirm what will be signed; false stops with nothing sent. */
  confirm: (lines: string[]) => Promise<boolean>;
}

export interface TransferOptions {
  slippagePercent: string;
  pollMs?: number;
  timeoutMs?: number;
  notIndexedMs?: number;
}

/**
 * The whole transfer in the spec's call order: route → (op hook) → msgs → for each transaction: approvals,
 * send, receipt, track once → status to a terminal state. Every step is journalled before and after, so the
 * same command run again after a kill resumes where it stopped, sending nothing twice.
 */
export async function runTransfer(intent: TransferIntent, options: TransferOptions, context: TransferContext): Promise<void> {
  const { router, journal, out } = context;
  if (journal.start === undefined) await journal.append({ type: "start", at: new Date().toISOString(), ...intent });
  else out.line(field("journal", `${journal.path}: resuming`));

  let route: Route | undefined = recordsOf(journal.records, "route")[0]?.route;
  if (route === undefined) {
    route = await router.route({
      source_asset_chain_id: intent.fromChain,
      source_asset_denom: intent.fromDenom,
      dest_asset_chain_id: intent.toChain,
      dest_asset_denom: intent.toDenom,
      amount_in: intent.amount,
    });
    for (const line of describeRoute(route)) out.line(line);
    // Refused here, before msgs and before anything is journalled as decided, if no hook can be signed.
    await withHook(route, undefined);
    await journal.append({ type: "route", route });
  }

  let msgs: MsgsResponse | undefined = recordsOf(journal.records, "msgs")[0]?.response;
  if (msgs === undefined) {
    const prepared = await withHook(route, undefined);
    const request = msgsRequest(prepared, addressList(route, context.signer, intent.recipient), options.slippagePercent);
    msgs = await router.msgs(request);
    checkTransactions(msgs.txs, context.chainId, context.signer.hex);
    await journal.append({ type: "msgs", request, response: msgs });
  } else {
    checkTransactions(msgs.txs, context.chainId, context.signer.hex);
  }
  const txs = msgs.txs.map((tx) => (tx as { evm_tx: EvmTx }).evm_tx);

  if (recordsOf(journal.records, "sending").length === 0) {
    const lines = txs.flatMap((tx, i) => [
      `transaction ${i + 1} of ${txs.length} on chain ${tx.chain_id}, signed by ${context.signer.hex}`,
      `  to ${tx.to}, value ${tx.value === "" || tx.value === "0" ? "none" : `${formatEther(BigInt(tx.value))} (native)`}, ${(tx.data.length - (tx.data.startsWith("0x") ? 2 : 0)) / 2} bytes of call data`,
      ...tx.required_erc20_approvals.map((a) => `  approval first: ${a.amount} of token ${a.token_contract} to ${a.spender} (exactly the amount)`),
    ]);
    lines.push(`minimum amount out ${msgs.min_amount_out ?? route.amount_out} ${route.dest_asset_denom} on ${route.dest_asset_chain_id}, to ${intent.recipient}`);
    if (!(await context.confirm(lines))) throw new VipError("not confirmed: nothing was sent");
  }

  const evmContext = { journal, signer: context.signer.signer, from: context.signer.hex, provider: context.provider, chainId: context.chainId, out };
  const hashes: string[] = [];
  for (const [i, tx] of txs.entries()) {
    const hash = await runEvmTx(evmContext, i, tx);
    await trackOnce(router, journal, hash, tx.chain_id, out);
    hashes.push(hash);
  }

  for (const [i, hash] of hashes.entries()) {
    const done = recordsOf(journal.records, "done").find((r) => r.hash === hash);
    const end = done !== undefined
      ? { state: done.state, transfer_asset_release: done.release as never, error: done.error as never, transfer_sequence: [] }
      : await followToTheEnd(router, journal, hash, txs[i]!.chain_id, {
          estimatedSeconds: route.estimated_route_duration_seconds,
          pollMs: options.pollMs,
          timeoutMs: options.timeoutMs ?? Math.max(30 * 60_000, route.estimated_route_duration_seconds * 3_000),
          notIndexedMs: options.notIndexedMs,
        }, out);
    if (end.state !== SUCCESS_STATE) throw new VipError(`${hash}: ${describeEnd(end)}`);
  }
  out.line(field("done", `${intent.amount} ${intent.fromDenom} on ${intent.fromChain} → ${intent.toDenom} on ${intent.toChain} for ${intent.recipient}: ${SUCCESS_STATE}`));
}
