import type { Provider } from "ethers";

import type {
  MsgsResponse,
  MsgsTx,
  Route,
  RouterClient,
} from "../clients/router.js";
import { SUCCESS_STATE } from "../clients/router.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { field, type Output } from "../output.js";
import { runCosmosTx } from "./cosmos.js";
import { describeRoute, describeTransactions } from "./describe.js";
import { runEvmTx } from "./evm.js";
import {
  describeEnd,
  followToTheEnd,
  recordedEnd,
  trackOnce,
} from "./follow.js";
import { hookSequenceGuard, journalledHookSigner } from "./hook.js";
import {
  addressList,
  checkTransactions,
  msgsRequest,
  withHook,
} from "./plan.js";
import {
  recordsOf,
  type TransferIntent,
  type TransferRecord,
  underWay,
} from "./records.js";
import type { StatusView } from "./status.js";
import type { Journal } from "../journal/journal.js";
import type { OperatorSigner } from "../signer/signer.js";

export interface TransferContext {
  router: RouterClient;
  journal: Journal<TransferRecord>;
  signer: OperatorSigner;
  provider: Provider;
  chainId: bigint;
  /**
   * The REST endpoint of an Initia chain the transfer signs on, by chain id.
   */
  restUrl: (chainId: string) => Promise<string>;
  out: Output;
  /**
   * Asks the operator to confirm what will be signed; false stops with nothing
   * sent.
   */
  confirm: (lines: string[]) => Promise<boolean>;
}

export interface TransferOptions {
  slippagePercent: string;
  pollMs?: number;
  timeoutMs?: number;
  notIndexedMs?: number;
}

const chainOf = (tx: MsgsTx) =>
  "cosmos_tx" in tx
    ? tx.cosmos_tx.chain_id
    : "evm_tx" in tx
      ? tx.evm_tx.chain_id
      : tx.svm_tx.chain_id;

/**
 * The whole transfer in the spec's call order: route → op hook (signed, when
 * the route requires one) → msgs → for each transaction in order: sign, send,
 * confirm, track once, status to a terminal state. Every step is journalled
 * before and after, so the same command run again after a kill resumes where it
 * stopped, sending nothing twice.
 */
export async function runTransfer(
  intent: TransferIntent,
  options: TransferOptions,
  context: TransferContext,
): Promise<void> {
  const { journal, out } = context;
  if (journal.start === undefined)
    await journal.append({
      type: "start",
      at: new Date().toISOString(),
      ...intent,
    });
  else out.line(field("journal", `${journal.path}: resuming`));
  const route = await routeOf(intent, context);
  const msgs = await msgsOf(intent, route, options, context);
  // Every chain to sign on must have a REST endpoint before anything is signed.
  for (const tx of msgs.txs)
    if ("cosmos_tx" in tx) await context.restUrl(tx.cosmos_tx.chain_id);
  if (!underWay(journal.records))
    await confirmOnce(intent, route, msgs, context);
  await runTransactions(route, msgs, options, context);
  out.line(
    field(
      "done",
      `${intent.amount} ${intent.fromDenom} on ${intent.fromChain} → ` +
        `${intent.toDenom} on ${intent.toChain} for ${intent.recipient}: ${SUCCESS_STATE}`,
    ),
  );
}

/** The journalled route, or the routing API's, shown and journalled. */
async function routeOf(
  intent: TransferIntent,
  { router, journal, out }: TransferContext,
): Promise<Route> {
  const recorded = recordsOf(journal.records, "route")[0]?.route;
  if (recorded !== undefined) return recorded;
  const route = await router.route({
    source_asset_chain_id: intent.fromChain,
    source_asset_denom: intent.fromDenom,
    dest_asset_chain_id: intent.toChain,
    dest_asset_denom: intent.toDenom,
    amount_in: intent.amount,
    ...(intent.opWithdraw === true ? { is_op_withdraw: true } : {}),
  });
  for (const line of describeRoute(route)) out.line(line);
  await journal.append({ type: "route", route });
  return route;
}

/**
 * The transactions to sign: the journalled ones, or the routing API's for the
 * route (with the op hook signed, when it requires one), journalled; checked
 * either way before anything is signed.
 */
async function msgsOf(
  intent: TransferIntent,
  route: Route,
  options: TransferOptions,
  context: TransferContext,
): Promise<MsgsResponse> {
  const { router, journal, out } = context;
  const recorded = recordsOf(journal.records, "msgs")[0]?.response;
  if (recorded !== undefined) {
    checkTransactions(recorded.txs, context.chainId, context.signer);
    return recorded;
  }
  const prepared = await withHook(
    route,
    journalledHookSigner({
      router,
      journal,
      signer: context.signer,
      recipient: intent.recipient,
      restUrl: context.restUrl,
      out,
    }),
  );
  const request = msgsRequest(
    prepared,
    addressList(route, context.signer, intent.recipient),
    options.slippagePercent,
  );
  const msgs = await router.msgs(request);
  checkTransactions(msgs.txs, context.chainId, context.signer);
  await journal.append({ type: "msgs", request, response: msgs });
  return msgs;
}

/** Shows what will be signed; stops, with nothing sent, unless confirmed. */
async function confirmOnce(
  intent: TransferIntent,
  route: Route,
  msgs: MsgsResponse,
  context: TransferContext,
): Promise<void> {
  const lines = describeTransactions(msgs.txs, context.signer);
  const hook = recordsOf(context.journal.records, "hook")[0];
  if (hook !== undefined)
    lines.push(
      `with the op hook signed by ${hook.signer} for ${hook.chainId} at sequence ${hook.sequence}`,
    );
  lines.push(
    `minimum amount out ${msgs.min_amount_out ?? route.amount_out} ${route.dest_asset_denom} ` +
      `on ${route.dest_asset_chain_id}, to ${intent.recipient}`,
  );
  if (!(await context.confirm(lines)))
    throw new VipError(ERRORS.NETWORK.TRANSFER.NOT_CONFIRMED);
}

/**
 * Each transaction in order, each to its end before the next is signed (a
 * later transaction spends what an earlier one delivers): sent once, tracked
 * once, followed to a terminal state.
 */
async function runTransactions(
  route: Route,
  msgs: MsgsResponse,
  options: TransferOptions,
  context: TransferContext,
): Promise<void> {
  const { journal, out } = context;
  const beforeBroadcast = hookSequenceGuard(journal, context.restUrl);
  const evmContext = {
    journal,
    signer: context.signer.signer,
    from: context.signer.hex,
    provider: context.provider,
    chainId: context.chainId,
    out,
  };
  const cosmosContext = {
    journal,
    account: context.signer,
    restUrl: context.restUrl,
    beforeBroadcast,
    out,
    pollMs: options.pollMs ?? 1_000,
    inclusionTimeoutMs: 10 * 60_000,
  };
  for (const [i, tx] of msgs.txs.entries()) {
    let hash: string;
    if ("cosmos_tx" in tx) {
      hash = await runCosmosTx(cosmosContext, i, tx.cosmos_tx);
    } else {
      if (!("evm_tx" in tx))
        throw new VipError(ERRORS.NETWORK.TRANSFER.TX_KIND_UNKNOWN, {
          n: i + 1,
        });
      await beforeBroadcast();
      hash = await runEvmTx(evmContext, i, tx.evm_tx);
    }
    await trackOnce(context.router, journal, hash, chainOf(tx), out);
    const end = await endOf(hash, chainOf(tx), route, options, context);
    if (end.outcome !== "success")
      throw new VipError(ERRORS.NETWORK.ROUTER.TRANSFER_FAILED, {
        hash,
        end: describeEnd(end),
      });
  }
}

/** The transaction's journalled end, or its status followed to the end. */
async function endOf(
  hash: string,
  chainId: string,
  route: Route,
  options: TransferOptions,
  { router, journal, out }: TransferContext,
): Promise<StatusView> {
  const done = recordsOf(journal.records, "done").find((r) => r.hash === hash);
  if (done !== undefined) return recordedEnd(done);
  const estimated = route.estimated_route_duration_seconds ?? undefined;
  return followToTheEnd(
    router,
    journal,
    hash,
    chainId,
    {
      estimatedSeconds: estimated,
      pollMs: options.pollMs,
      timeoutMs:
        options.timeoutMs ?? Math.max(30 * 60_000, (estimated ?? 0) * 3_000),
      notIndexedMs: options.notIndexedMs,
    },
    out,
  );
}
