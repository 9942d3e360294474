import type { IncomingMessage } from "node:http";

import { json, startServer, type StandInServer } from "./server.js";

/** A route the stand-in knows, keyed by its source and destination assets. */
export interface StandInRoute {
  source: { chainId: string; denom: string };
  dest: { chainId: string; denom: string };
  /** The route's answer, without the echoed request fields. */
  answer: Record<string, unknown>;
}

export type RouterFault = "none" | "429" | "500" | "drop" | "malformed";

export interface RouterState {
  routes: StandInRoute[];
  /** Faults the next requests meet, one each, in order (then none). */
  faults: RouterFault[];
  /** Requests per endpoint, and `authorization` headers seen. */
  calls: Record<string, number>;
  authorizations: string[];
}

export interface RouterStandIn extends StandInServer {
  state: RouterState;
}

/** Skip Go's error body, with Initia's `info` where the router adds one. */
function apiError(status: number, code: number, message: string, info?: string) {
  return json({ code, message, details: [], ...(info === undefined ? {} : { info }) }, status);
}

/**
 * Stands in for the routing API (Skip Go v2 + Initia's /op-hook) on 127.0.0.1, answering in the documented
 * shapes: `POST /v2/fungible/route` from a table of routes (an unknown pair is a 400 with the API's error
 * body), with faults injected in order (429, 500, a dropped connection, a malformed answer).
 */
export async function startRouterStandIn(initial: Partial<RouterState> = {}): Promise<RouterStandIn> {
  const state: RouterState = { routes: [], faults: [], calls: {}, authorizations: [], ...initial };
  const server = await startServer((request: IncomingMessage, body: string) => {
    const url = new URL(request.url ?? "/", "http://stand-in");
    const endpoint = `${request.method} ${url.pathname}`;
    state.calls[endpoint] = (state.calls[endpoint] ?? 0) + 1;
    const authorization = request.headers.authorization;
    if (typeof authorization === "string") state.authorizations.push(authorization);
    const fault = state.faults.shift() ?? "none";
    if (fault === "429") return apiError(429, 8, "too many requests", "slow down");
    if (fault === "500") return apiError(500, 2, "internal error");
    if (fault === "drop") {
      request.socket.destroy();
      return { status: 500, body: "" };
    }
    if (endpoint === "POST /v2/fungible/route") {
      const asked = JSON.parse(body || "{}") as Record<string, string>;
      const route = state.routes.find(
        (r) =>
          r.source.chainId === asked.source_asset_chain_id &&
          r.source.denom === asked.source_asset_denom &&
          r.dest.chainId === asked.dest_asset_chain_id &&
          r.dest.denom === asked.dest_asset_denom,
      );
      if (route === undefined) {
        return apiError(400, 3, `no routes found for ${asked.source_asset_denom} on ${asked.source_asset_chain_id} to ${asked.dest_asset_denom} on ${asked.dest_asset_chain_id}`, "check the denoms and chain ids");
      }
      const answer: Record<string, unknown> = {
        source_asset_denom: asked.source_asset_denom,
        source_asset_chain_id: asked.source_asset_chain_id,
        dest_asset_denom: asked.dest_asset_denom,
        dest_asset_chain_id: asked.dest_asset_chain_id,
        amount_in: asked.amount_in,
        ...route.answer,
      };
      if (fault === "malformed") delete answer.operations;
      return json(answer);
    }
    return apiError(404, 5, `unknown endpoint ${endpoint}`);
  });
  return { ...server, state };
}

/**
 * A route as the base chain's router answers one to an EVM rollup: one OPinit hop, with the op hook and an
 * estimated duration; amounts scale with `amountIn`.
 */
export function opinitRoute(options: { from: string; to: string; denomIn: string; denomOut: string; bridgeId: string; amountIn: bigint; opHook: boolean }): StandInRoute {
  const out = options.amountIn.toString();
  return {
    source: { chainId: options.from, denom: options.denomIn },
    dest: { chainId: options.to, denom: options.denomOut },
    answer: {
      amount_out: out,
      estimated_amount_out: out,
      operations: [
        {
          op_init_transfer: {
            from_chain_id: options.from,
            to_chain_id: options.to,
            denom_in: options.denomIn,
            denom_out: options.denomOut,
            op_init_bridge_id: options.bridgeId,
            bridge_id: "OPINIT",
            smart_relay: false,
          },
          tx_index: 0,
          amount_in: out,
          amount_out: out,
        },
      ],
      chain_ids: [options.from, options.to],
      required_chain_addresses: [options.from, options.to],
      txs_required: 1,
      estimated_route_duration_seconds: 90,
      does_swap: false,
      estimated_fees: [],
      warning: null,
      required_op_hook: options.opHook,
      extra_warnings: [],
      extra_infos: [],
    },
  };
}
