import { z } from "zod";

import { firstLine, VipError } from "../errors.js";
import { isTransient, withRetry } from "../network/retry.js";
import { describeEndpoint, joinUrl } from "./http.js";

// The routing API: Skip Go API v2, extended by Initia's router with /op-hook. Every answer is checked on
// arrival; fields this client does not know pass through, a missing or mistyped one it needs is an error
// naming the endpoint and the field's path.

const amount = z.string().regex(/^\d+$/, "must be an amount in base units, as a decimal string");
const chainId = z.string().min(1);

/** One hop: a one-key wrapper (`transfer`, `op_init_transfer`, `swap`, …) plus the hop's amounts. */
export const operationSchema = z
  .object({ tx_index: z.number().int().nonnegative(), amount_in: amount, amount_out: amount })
  .passthrough();
export type Operation = z.infer<typeof operationSchema>;

const feeSchema = z
  .object({ fee_type: z.string(), amount: amount, usd_amount: z.string().optional(), chain_id: z.string().optional(), origin_asset: z.object({ denom: z.string(), symbol: z.string().optional() }).passthrough().optional() })
  .passthrough();

export const routeRequestSchema = z.object({
  source_asset_denom: z.string().min(1),
  source_asset_chain_id: chainId,
  dest_asset_denom: z.string().min(1),
  dest_asset_chain_id: chainId,
  amount_in: amount,
  allow_multi_tx: z.boolean().optional(),
  is_op_withdraw: z.boolean().optional(),
});
export type RouteRequest = z.infer<typeof routeRequestSchema>;

export const routeSchema = z
  .object({
    amount_in: amount,
    amount_out: amount,
    estimated_amount_out: amount.optional(),
    source_asset_denom: z.string(),
    source_asset_chain_id: chainId,
    dest_asset_denom: z.string(),
    dest_asset_chain_id: chainId,
    operations: z.array(operationSchema).min(1, "must list at least one hop"),
    chain_ids: z.array(chainId),
    required_chain_addresses: z.array(chainId),
    txs_required: z.number().int().nonnegative(),
    estimated_route_duration_seconds: z.number().nonnegative(),
    does_swap: z.boolean().optional(),
    estimated_fees: z.array(feeSchema).optional(),
    warning: z.object({ type: z.string(), message: z.string() }).passthrough().nullish(),
    required_op_hook: z.boolean().optional(),
    extra_warnings: z.array(z.string()).nullish(),
    extra_infos: z.array(z.string()).nullish(),
  })
  .passthrough();
export type Route = z.infer<typeof routeSchema>;

export const opHookRequestSchema = z.object({
  source_address: z.string().min(1),
  source_asset_chain_id: chainId,
  source_asset_denom: z.string().min(1),
  dest_address: z.string().startsWith("init1", "must be an init1… address"),
  dest_asset_chain_id: chainId,
  dest_asset_denom: z.string().min(1),
});
export type OpHookRequest = z.infer<typeof opHookRequestSchema>;

export const opHookResponseSchema = z
  .object({ chain_id: chainId, hook: z.array(z.object({ msg_type_url: z.string().min(1), msg: z.string() }).passthrough()).min(1) })
  .passthrough();
export type OpHookResponse = z.infer<typeof opHookResponseSchema>;

/** The signed hook `msgs` carries for a route with `required_op_hook`: the signer and base64 Tx bytes. */
export interface SignedOpHook {
  signer: string;
  hook: string;
}

export interface MsgsRequest {
  source_asset_denom: string;
  source_asset_chain_id: string;
  dest_asset_denom: string;
  dest_asset_chain_id: string;
  amount_in: string;
  amount_out: string;
  operations: Operation[];
  address_list: string[];
  slippage_tolerance_percent: string;
  signed_op_hook?: SignedOpHook;
}

const evmTxSchema = z
  .object({
    chain_id: chainId,
    to: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address"),
    value: z.string().regex(/^\d*$/, "must be a decimal amount or empty"),
    data: z.string().regex(/^(0x)?[0-9a-fA-F]*$/, "must be hex"),
    required_erc20_approvals: z
      .array(z.object({ amount: amount, spender: z.string().regex(/^0x[0-9a-fA-F]{40}$/), token_contract: z.string().regex(/^0x[0-9a-fA-F]{40}$/) }).passthrough())
      .default([]),
    signer_address: z.string().min(1),
  })
  .passthrough();
export type EvmTx = z.infer<typeof evmTxSchema>;

const cosmosTxSchema = z
  .object({
    chain_id: chainId,
    path: z.array(z.string()).default([]),
    signer_address: z.string().min(1),
    msgs: z.array(z.object({ msg_type_url: z.string().min(1), msg: z.string() }).passthrough()).min(1),
  })
  .passthrough();
export type CosmosTx = z.infer<typeof cosmosTxSchema>;

const indices = { operations_indices: z.array(z.number().int()).optional() };
export const msgsTxSchema = z.union([
  z.object({ evm_tx: evmTxSchema, ...indices }).passthrough(),
  z.object({ cosmos_tx: cosmosTxSchema, ...indices }).passthrough(),
  z.object({ svm_tx: z.object({ chain_id: chainId, signer_address: z.string(), tx: z.string() }).passthrough(), ...indices }).passthrough(),
]);
export type MsgsTx =
  | { evm_tx: EvmTx; operations_indices?: number[] }
  | { cosmos_tx: CosmosTx; operations_indices?: number[] }
  | { svm_tx: { chain_id: string; signer_address: string; tx: string }; operations_indices?: number[] };

export const msgsResponseSchema = z
  .object({ txs: z.array(msgsTxSchema).min(1, "must hold at least one transaction"), min_amount_out: amount.optional(), estimated_fees: z.array(feeSchema).optional() })
  .passthrough();
export type MsgsResponse = Omit<z.infer<typeof msgsResponseSchema>, "txs"> & { txs: MsgsTx[] };

export const trackResponseSchema = z.object({ tx_hash: z.string().min(1), explorer_link: z.string().optional() }).passthrough();
export type TrackResponse = z.infer<typeof trackResponseSchema>;

export const transferStatusSchema = z
  .object({
    state: z.string(),
    transfer_sequence: z.array(z.record(z.unknown())).default([]),
    next_blocking_transfer: z.object({ transfer_sequence_index: z.number() }).passthrough().nullish(),
    transfer_asset_release: z.object({ chain_id: z.string(), denom: z.string(), amount: z.string(), released: z.boolean() }).passthrough().nullish(),
    error: z.object({ type: z.string().optional(), message: z.string().optional() }).passthrough().nullish(),
  })
  .passthrough();
export type TransferStatus = z.infer<typeof transferStatusSchema>;

export const statusResponseSchema = z
  .object({ transfers: z.array(transferStatusSchema).min(1, "must hold at least one transfer"), state: z.string().optional(), status: z.string().optional() })
  .passthrough();
export type StatusResponse = z.infer<typeof statusResponseSchema>;


/**
 * `GET /v2/info/chains`. Skip's chain entries carry no endpoints; Initia's router adds each chain's `rpc` and
 * `rest` (interwovenkit reads them as `RouterChainJson`), which is all this client needs of the list.
 */
export const chainsResponseSchema = z.object({
  chains: z.array(z.object({ chain_id: chainId, rest: z.string().optional() }).passthrough()),
});
export type RouterChain = z.infer<typeof chainsResponseSchema>["chains"][number];

/** Terminal states of a transfer: success, and the three failures. */
export const SUCCESS_STATE = "STATE_COMPLETED_SUCCESS";
export const FAILURE_STATES = new Set(["STATE_COMPLETED_ERROR", "STATE_ABANDONED", "STATE_PENDING_ERROR"]);

const errorBodySchema = z.object({ code: z.number().optional(), message: z.string(), details: z.array(z.unknown()).optional(), info: z.string().optional() }).passthrough();

/** An answer of the routing API that is an error: its HTTP status, message and Initia's `info`. */
export class RouterError extends VipError {
  constructor(
    message: string,
    readonly status: number,
    readonly info?: string,
  ) {
    super(message);
  }
}

export interface RouterClientOptions {
  /** Sent as the `authorization` header; never printed. */
  apiKey?: string;
  /** Retries of the read-only calls (route, status) after the first attempt. */
  retries?: number;
  minDelayMs?: number;
  onRetry?: (what: string, error: unknown, retriesLeft: number) => void;
  timeoutMs?: number;
}

/**
 * The routing API, one method per endpoint. The read-only calls (chains, route, status) are retried on transport
 * failures, 429 and 5xx, bounded; op-hook, msgs and track are sent once: the caller decides what a failure
 * means (a track that may have arrived is not repeated blindly).
 */
export class RouterClient {
  constructor(
    readonly baseUrl: string,
    private readonly options: RouterClientOptions = {},
  ) {}

  async chains(): Promise<RouterChain[]> {
    return (await this.#retried("GET /v2/info/chains", () => this.#call("GET", "/v2/info/chains", undefined, chainsResponseSchema))).chains;
  }

  route(request: RouteRequest): Promise<Route> {
    return this.#retried("POST /v2/fungible/route", () => this.#call("POST", "/v2/fungible/route", request, routeSchema));
  }

  opHook(request: OpHookRequest): Promise<OpHookResponse> {
    return this.#call("POST", "/op-hook", request, opHookResponseSchema);
  }

  msgs(request: MsgsRequest): Promise<MsgsResponse> {
    return this.#call("POST", "/v2/fungible/msgs", request, msgsResponseSchema) as Promise<MsgsResponse>;
  }

  track(txHash: string, chainId: string): Promise<TrackResponse> {
    return this.#call("POST", "/v2/tx/track", { tx_hash: txHash, chain_id: chainId }, trackResponseSchema);
  }

  status(txHash: string, chainId: string): Promise<StatusResponse> {
    const query = `?tx_hash=${encodeURIComponent(txHash)}&chain_id=${encodeURIComponent(chainId)}`;
    return this.#retried("GET /v2/tx/status", () => this.#call("GET", `/v2/tx/status${query}`, undefined, statusResponseSchema));
  }

  #retried<T>(what: string, call: () => Promise<T>): Promise<T> {
    return withRetry(what, call, {
      retries: this.options.retries ?? 5,
      minDelayMs: this.options.minDelayMs ?? 500,
      onRetry: this.options.onRetry,
      retryable: (error) => (error instanceof RouterError ? error.status === 429 || error.status >= 500 : isTransient(error)),
    });
  }

  async #call<T>(method: "GET" | "POST", path: string, body: unknown, schema: z.ZodType<T, z.ZodTypeDef, unknown>): Promise<T> {
    const endpoint = `${method} ${describeEndpoint(this.baseUrl, path.split("?")[0]!)}`;
    const headers: Record<string, string> = { accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (this.options.apiKey !== undefined) headers.authorization = this.options.apiKey;
    let response: Response;
    try {
      response = await fetch(joinUrl(this.baseUrl, path), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      const cause = error instanceof Error ? error : new Error(String(error));
      const code = (cause as { cause?: { code?: string } }).cause?.code;
      throw new VipError(`cannot reach ${endpoint}: ${cause.name === "TimeoutError" ? "no answer in time" : (code ?? firstLine(cause))}`, cause);
    }
    const text = await response.text();
    let value: unknown;
    try {
      value = text === "" ? undefined : JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (!response.ok) {
      const parsed = errorBodySchema.safeParse(value);
      const message = parsed.success ? parsed.data.message : text.replace(/\s+/g, " ").trim().slice(0, 200) || "(empty body)";
      const info = parsed.success ? parsed.data.info : undefined;
      throw new RouterError(`${endpoint} answered HTTP ${response.status}: ${message}${info === undefined ? "" : ` (${info})`}`, response.status, info);
    }
    if (value === undefined) throw new VipError(`${endpoint} did not answer JSON: ${text.slice(0, 200) || "(empty body)"}`);
    const checked = schema.safeParse(value);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      const field = issue.path.length === 0 ? "the answer" : issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`)).join("").replace(/^\./, "");
      const problem = issue.code === "invalid_type" && issue.received === "undefined" ? "is missing" : issue.message;
      throw new VipError(`${endpoint}: ${field} ${problem}`);
    }
    return checked.data;
  }
}
