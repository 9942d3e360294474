import type { Operation, Route } from "../clients/router.js";
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
