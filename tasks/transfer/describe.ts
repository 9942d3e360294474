import { formatEther } from "ethers";

import type { MsgsTx, Operation, Route } from "../clients/router.js";
import { checkMsg } from "../cosmos/amino.js";
import { operationKindOf } from "./hops.js";


/** One hop in words: the bridge or venue, from → to chain, denom in → out, amounts. */
export function describeOperation(operation: Operation, index: number): string {
  const { kind, body } = operationKindOf(operation);
  const text = (key: string) => (typeof body[key] === "string" ? (body[key] as string) : undefined);
  const from = text("from_chain_id") ?? text("chain_id") ?? "?";
  const to = text("to_chain_id") ?? text("chain_id") ?? from;
  const bridge =
    kind === "op_init_transfer"
      ? `OPinit bridge ${String(body.op_init_bridge_id ?? "?")}`
      : kind === "swap"
        ? `swap on ${venues(body)}`
        : kind === "transfer"
          ? `IBC ${text("port") ?? "transfer"}/${text("channel") ?? "?"}`
          : kind;
  return `${index + 1}. ${bridge}: ${from} → ${to}, ${text("denom_in") ?? "?"} → ${text("denom_out") ?? "?"}, ${operation.amount_in} → ${operation.amount_out} (tx ${operation.tx_index + 1})`;
}

/** A duration in seconds as a person reads it. */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return minutes < 60 ? `${minutes} min${rest === 0 ? "" : ` ${rest} s`}` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The whole route as lines: amounts, each hop, transactions, duration, fees, warnings, the op hook. */
export function describeRoute(route: Route): string[] {
  const lines = [
    `amount in             ${route.amount_in} ${route.source_asset_denom} on ${route.source_asset_chain_id}`,
    `expected out          ${route.estimated_amount_out ?? route.amount_out} ${route.dest_asset_denom} on ${route.dest_asset_chain_id}`,
    ...route.operations.map((op, i) => `${i === 0 ? "hops                  " : "                      "}${describeOperation(op, i)}`),
    `transactions          ${route.txs_required} to sign (chains that need an address: ${route.required_chain_addresses.join(", ")})`,
    `estimated duration    ${formatDuration(route.estimated_route_duration_seconds)}`,
    `fees                  ${(route.estimated_fees ?? []).length === 0 ? "none beyond gas" : route.estimated_fees!.map((f) => `${f.amount} ${f.origin_asset?.denom ?? ""} (${f.fee_type})`).join(", ")}`,
    `op hook               ${route.required_op_hook === true ? "required: the destination must sign a hook before the transfer (see README)" : "not required"}`,
  ];
  const warnings = [...(route.warning ? [`${route.warning.type}: ${route.warning.message}`] : []), ...(route.extra_warnings ?? [])];
  for (const warning of warnings) lines.push(`warning               ${warning}`);
  for (const info of route.extra_infos ?? []) lines.push(`note                  ${info}`);
  return lines;
}

/** The venue names of a swap operation: its `swap_venues`, else its `swap_in`/`swap_out`'s venue. */
function venues(body: Record<string, unknown>): string {
  const listed = Array.isArray(body.swap_venues) ? (body.swap_venues as { name?: string }[]).map((v) => v.name) : [];
  const inner = ((body.swap_in ?? body.swap_out ?? body.smart_swap_in) as { swap_venue?: { name?: string } } | undefined)?.swap_venue?.name;
  const names = [...new Set([...listed, inner].filter((n): n is string => typeof n === "string"))];
  return names.length === 0 ? "an unnamed venue" : names.join(", ");
}

/** What will be signed, for the confirmation prompt: each transaction's chain and signer, its messages or call in words. */
export function describeTransactions(txs: MsgsTx[], signer: { hex: string; bech32: string }): string[] {
  return txs.flatMap((tx, i) => {
    const head = `transaction ${i + 1} of ${txs.length}`;
    if ("cosmos_tx" in tx) {
      const cosmos = tx.cosmos_tx;
      return [
        `${head} on ${cosmos.chain_id} (Cosmos), signed by ${signer.bech32}`,
        ...cosmos.msgs.map((msg, j) => `  ${checkMsg(msg, `transaction ${i + 1}, message ${j + 1}`).description}`),
        `  fee: the chain's gas price for the simulated gas (+40%), shown when signed`,
      ];
    }
    if (!("evm_tx" in tx)) return [`${head}: not signable here`];
    const evm = tx.evm_tx;
    return [
      `${head} on chain ${evm.chain_id}, signed by ${signer.hex}`,
      `  to ${evm.to}, value ${evm.value === "" || evm.value === "0" ? "none" : `${formatEther(BigInt(evm.value))} (native)`}, ${(evm.data.length - (evm.data.startsWith("0x") ? 2 : 0)) / 2} bytes of call data`,
      ...evm.required_erc20_approvals.map((a) => `  approval first: ${a.amount} of token ${a.token_contract} to ${a.spender} (exactly the amount)`),
    ];
  });
}
