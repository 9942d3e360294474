import { ensureError } from "@nomicfoundation/hardhat-utils/error";
import { z } from "zod";

import { ERRORS } from "../error-catalog.js";
import { reasonOf, VipError, defined } from "../errors.js";
import { causeCode, describeEndpoint, joinUrl } from "./http.js";
import { isTransient, withRetry } from "../network/retry.js";
import { safeText } from "../output.js";

// The routing API: Skip Go API v2, extended by Initia's router with /op-hook.
// Every answer is checked on arrival against what the two published OpenAPI
// documents allow (Skip's docs/swagger.yml, Initia's router-api/openapi.yaml):
// fields this client does not know pass through, fields it does not need are
// optional, null where a document allows null. Only what a send cannot do
// without is required, and its absence is an error naming the endpoint and the
// field's path (test/corpus/router/ replays the documents' own examples).

const amount = z
  .string()
  .regex(/^\d+$/, "must be an amount in base units, as a decimal string");
const chainId = z.string().min(1);

/**
 * One hop: a one-key wrapper (`transfer`, `op_init_transfer`, `swap`, …) plus
 * the hop's transaction index and amounts, which Skip's own route example
 * leaves out. Operations go back to `msgs` verbatim.
 */
const operationSchema = z
  .object({
    tx_index: z.number().int().nonnegative().optional(),
    amount_in: amount.optional(),
    amount_out: amount.optional(),
  })
  .passthrough();
type Operation = z.infer<typeof operationSchema>;

const assetSchema = z
  .object({
    denom: z.string().optional(),
    symbol: z.string().nullish(),
    chain_id: z.string().nullish(),
    decimals: z.number().nullish(),
  })
  .passthrough();
export type FeeAsset = z.infer<typeof assetSchema>;

/**
 * `estimated_fees[]`: Skip's `Fee` (with `fee_type`, `fee_behavior`), or
 * Initia's (without `fee_type`).
 */
const feeSchema = z
  .object({
    fee_type: z.string().nullish(),
    bridge_id: z.string().nullish(),
    amount: amount.nullish(),
    usd_amount: z.string().nullish(),
    chain_id: z.string().nullish(),
    origin_asset: assetSchema.nullish(),
    tx_index: z.number().nullish(),
    operation_index: z.number().nullish(),
    fee_behavior: z.string().nullish(),
  })
  .passthrough();
export type EstimatedFee = z.infer<typeof feeSchema>;

export const routeRequestSchema = z.object({
  source_asset_denom: z.string().min(1),
  source_asset_chain_id: chainId,
  dest_asset_denom: z.string().min(1),
  dest_asset_chain_id: chainId,
  amount_in: amount,
  /**
   * Initia's: force the OPinit (optimistic) withdrawal from a rollup instead of
   * a faster bridge.
   */
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
    operations: z.array(operationSchema),
    chain_ids: z.array(chainId).optional(),
    /**
     * Needed to send (`address_list` follows it); `msgs` refuses a route
     * without it, naming it.
     */
    required_chain_addresses: z.array(chainId).optional(),
    txs_required: z.number().int().nonnegative().optional(),
    /** Older answers lack it: polling then keeps a steady pace. */
    estimated_route_duration_seconds: z.number().nonnegative().nullish(),
    does_swap: z.boolean().nullish(),
    usd_amount_in: z.string().nullish(),
    usd_amount_out: z.string().nullish(),
    estimated_fees: z.array(feeSchema).nullish(),
    warning: z
      .object({ type: z.string(), message: z.string() })
      .passthrough()
      .nullish(),
    required_op_hook: z.boolean().nullish(),
    extra_warnings: z.array(z.string()).nullish(),
    extra_infos: z.array(z.string()).nullish(),
  })
  .passthrough();
export type Route = z.infer<typeof routeSchema>;

/** `POST /op-hook`: `dest_address` is the rollup account's `init1…` address. */
export interface OpHookRequest {
  source_address: string;
  source_asset_chain_id: string;
  source_asset_denom: string;
  dest_address: string;
  dest_asset_chain_id: string;
  dest_asset_denom: string;
}

const opHookResponseSchema = z
  .object({
    chain_id: chainId,
    hook: z
      .array(
        z
          .object({ msg_type_url: z.string().min(1), msg: z.string() })
          .passthrough(),
      )
      .min(1),
  })
  .passthrough();
export type OpHookResponse = z.infer<typeof opHookResponseSchema>;

/**
 * The signed hook `msgs` carries for a route with `required_op_hook`: the
 * signer and base64 Tx bytes.
 */
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
      .array(
        z
          .object({
            amount: amount,
            spender: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
            token_contract: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
          })
          .passthrough(),
      )
      .nullish()
      .transform((approvals) => approvals ?? []),
    signer_address: z.string().min(1),
  })
  .passthrough();
export type EvmTx = z.infer<typeof evmTxSchema>;

const cosmosTxSchema = z
  .object({
    chain_id: chainId,
    path: z
      .array(z.string())
      .nullish()
      .transform((path) => path ?? []),
    signer_address: z.string().min(1),
    msgs: z
      .array(
        z
          .object({ msg_type_url: z.string().min(1), msg: z.string() })
          .passthrough(),
      )
      .min(1),
  })
  .passthrough();
export type CosmosTx = z.infer<typeof cosmosTxSchema>;

const indices = { operations_indices: z.array(z.number().int()).nullish() };
const msgsTxSchema = z.union([
  z.object({ evm_tx: evmTxSchema, ...indices }).passthrough(),
  z.object({ cosmos_tx: cosmosTxSchema, ...indices }).passthrough(),
  z
    .object({
      svm_tx: z
        .object({
          chain_id: chainId,
          signer_address: z.string(),
          tx: z.string(),
        })
        .passthrough(),
      ...indices,
    })
    .passthrough(),
]);
export type MsgsTx =
  | { evm_tx: EvmTx; operations_indices?: number[] | null }
  | { cosmos_tx: CosmosTx; operations_indices?: number[] | null }
  | {
      svm_tx: { chain_id: string; signer_address: string; tx: string };
      operations_indices?: number[] | null;
    };

const msgsResponseFields = z.object({
  min_amount_out: amount.nullish(),
  estimated_fees: z.array(feeSchema).nullish(),
});
const msgsResponseSchema = msgsResponseFields
  .extend({
    txs: z.array(msgsTxSchema).min(1, "must hold at least one transaction"),
  })
  .passthrough();
// Omit over the passthrough type would lose the known fields to its index
// signature.
export type MsgsResponse = z.infer<typeof msgsResponseFields> & {
  txs: MsgsTx[];
};

const trackResponseSchema = z
  .object({
    tx_hash: z.string().nullish(),
    explorer_link: z.string().nullish(),
  })
  .passthrough();
export type TrackResponse = z.infer<typeof trackResponseSchema>;

/**
 * Where the assets of a transfer are, or will be: `amount` is nullable, and
 * absent from real successful statuses.
 */
const releaseSchema = z
  .object({
    chain_id: z.string().nullish(),
    denom: z.string().nullish(),
    amount: z.string().nullish(),
    released: z.boolean().nullish(),
  })
  .passthrough();
export type AssetRelease = z.infer<typeof releaseSchema>;

const statusErrorSchema = z
  .object({ type: z.string().nullish(), message: z.string().nullish() })
  .passthrough();

/**
 * A hop as status reports it: Skip's one-key wrapper (`ibc_transfer`, …), or
 * Initia's flat `{src_chain_id, dst_chain_id, state}`.
 */
const hopSchema = z.record(z.unknown());

const transferStatusSchema = z
  .object({
    state: z.string().nullish(),
    transfer_sequence: z.array(hopSchema).nullish(),
    next_blocking_transfer: z
      .object({ transfer_sequence_index: z.number().nullish() })
      .passthrough()
      .nullish(),
    transfer_asset_release: releaseSchema.nullish(),
    error: statusErrorSchema.nullish(),
  })
  .passthrough();

/**
 * `GET /v2/tx/status`: the overall `state` and a flat (deprecated)
 * `transfer_sequence` at the top, and, per transfer the transaction started,
 * `transfers[]`. Either may be missing or empty in answers the documents allow
 * (Skip's own examples carry no top-level state; Initia's carries `transfers:
 * []`).
 */
const statusResponseSchema = z
  .object({
    transfers: z.array(transferStatusSchema).nullish(),
    state: z.string().nullish(),
    transfer_sequence: z.array(hopSchema).nullish(),
    next_blocking_transfer: z
      .object({ transfer_sequence_index: z.number().nullish() })
      .passthrough()
      .nullish(),
    transfer_asset_release: releaseSchema.nullish(),
    error: statusErrorSchema.nullish(),
    status: z.string().nullish(),
  })
  .passthrough();
export type StatusResponse = z.infer<typeof statusResponseSchema>;

/**
 * `GET /v2/info/chains`. Skip's chain entries carry no endpoints; Initia's
 * router adds each chain's `rpc` and `rest` (interwovenkit reads them as
 * `RouterChainJson`), which is all this client needs of the list.
 */
const chainsResponseSchema = z.object({
  chains: z.array(
    z
      .object({ chain_id: z.string().nullish(), rest: z.string().nullish() })
      .passthrough(),
  ),
});
export type RouterChain = z.infer<
  typeof chainsResponseSchema
>["chains"][number];

export const SUCCESS_STATE = "STATE_COMPLETED_SUCCESS";

const errorBodySchema = z
  .object({
    code: z.number().nullish(),
    message: z.string(),
    details: z.array(z.unknown()).nullish(),
    info: z.string().nullish(),
  })
  .passthrough();

/**
 * An answer of the routing API that is an error: its HTTP status, the API's
 * own message and Initia's `info`.
 */
export class RouterError extends VipError<
  typeof ERRORS.NETWORK.ROUTER.ROUTER_HTTP_STATUS
> {
  constructor(
    readonly endpoint: string,
    readonly status: number,
    readonly reason: string,
    readonly info?: string,
  ) {
    super(ERRORS.NETWORK.ROUTER.ROUTER_HTTP_STATUS, {
      endpoint,
      status,
      reason,
      info: info === undefined ? "" : ` (${info})`,
    });
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
 * The routing API, one method per endpoint. The read-only calls (chains, route,
 * status) are retried on transport failures, 429 and 5xx, bounded; op-hook,
 * msgs and track are sent once: the caller decides what a failure means (a
 * track that may have arrived is not repeated blindly).
 */
export class RouterClient {
  readonly #options: RouterClientOptions;

  constructor(
    readonly baseUrl: string,
    options: RouterClientOptions = {},
  ) {
    this.#options = options;
  }

  async chains(): Promise<RouterChain[]> {
    return (
      await this.#retried("GET /v2/info/chains", () =>
        this.#call("GET", "/v2/info/chains", undefined, chainsResponseSchema),
      )
    ).chains;
  }

  route(request: RouteRequest): Promise<Route> {
    return this.#retried("POST /v2/fungible/route", () =>
      this.#call("POST", "/v2/fungible/route", request, routeSchema),
    );
  }

  opHook(request: OpHookRequest): Promise<OpHookResponse> {
    return this.#call("POST", "/op-hook", request, opHookResponseSchema);
  }

  msgs(request: MsgsRequest): Promise<MsgsResponse> {
    return this.#call("POST", "/v2/fungible/msgs", request, msgsResponseSchema);
  }

  track(txHash: string, chainId: string): Promise<TrackResponse> {
    return this.#call(
      "POST",
      "/v2/tx/track",
      { tx_hash: txHash, chain_id: chainId },
      trackResponseSchema,
    );
  }

  status(txHash: string, chainId: string): Promise<StatusResponse> {
    const query = `?tx_hash=${encodeURIComponent(txHash)}&chain_id=${encodeURIComponent(chainId)}`;
    return this.#retried("GET /v2/tx/status", () =>
      this.#call(
        "GET",
        `/v2/tx/status${query}`,
        undefined,
        statusResponseSchema,
      ),
    );
  }

  #retried<T>(what: string, call: () => Promise<T>): Promise<T> {
    return withRetry(what, call, {
      retries: this.#options.retries ?? 5,
      minDelayMs: this.#options.minDelayMs ?? 500,
      onRetry: this.#options.onRetry,
      retryable: (error) =>
        error instanceof RouterError
          ? error.status === 429 || error.status >= 500
          : isTransient(error),
    });
  }

  async #call<T>(
    method: "GET" | "POST",
    path: string,
    body: unknown,
    schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  ): Promise<T> {
    const bare = defined(
      path.split("?")[0],
      "split always yields a first part",
    );
    const endpoint = `${method} ${describeEndpoint(this.baseUrl, bare)}`;
    const headers: Record<string, string> = { accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (this.#options.apiKey !== undefined)
      headers.authorization = this.#options.apiKey;
    let response: Response;
    try {
      response = await fetch(joinUrl(this.baseUrl, path), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.#options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      ensureError(error);
      const reason =
        error.name === "TimeoutError"
          ? "no answer in time"
          : (causeCode(error) ?? reasonOf(error, "with code"));
      throw new VipError(
        ERRORS.NETWORK.ROUTER.ROUTER_UNREACHABLE,
        { endpoint, reason },
        error,
      );
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
      const message = parsed.success
        ? safeText(parsed.data.message)
        : safeText(text.replace(/\s+/g, " ").trim(), 200) || "(empty body)";
      const info = parsed.success ? (parsed.data.info ?? undefined) : undefined;
      throw new RouterError(endpoint, response.status, message, info);
    }
    if (value === undefined)
      throw new VipError(ERRORS.NETWORK.HTTP.NOT_JSON, {
        url: endpoint,
        body: safeText(text, 200) || "(empty body)",
      });
    const checked = schema.safeParse(value);
    if (!checked.success) {
      const issue = innermostIssue(
        defined(checked.error.issues[0], "a failed parse has an issue"),
        value,
      );
      const field =
        issue.path.length === 0
          ? "the answer"
          : issue.path
              .map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`))
              .join("")
              .replace(/^\./, "");
      const problem =
        issue.code === "invalid_type" && issue.received === "undefined"
          ? "is missing"
          : issue.message;
      throw new VipError(ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER, {
        what: endpoint,
        field,
        problem,
      });
    }
    return checked.data;
  }
}

/**
 * For a value that matches no member of a union (a transaction that is neither
 * a valid `evm_tx`, `cosmos_tx` nor `svm_tx`), the issue of the member whose
 * key the value has: "txs[0].cosmos_tx.msgs must hold…" rather than "txs[0]
 * Invalid input".
 */
function innermostIssue(issue: z.ZodIssue, value: unknown): z.ZodIssue {
  if (issue.code !== "invalid_union") return issue;
  let inner: unknown = value;
  for (const key of issue.path)
    inner = (inner as Record<string | number, unknown> | undefined)?.[key];
  const keys =
    typeof inner === "object" && inner !== null ? Object.keys(inner) : [];
  for (const member of issue.unionErrors) {
    const first = member.issues[0];
    const memberKey = first?.path[issue.path.length];
    if (
      first !== undefined &&
      typeof memberKey === "string" &&
      keys.includes(memberKey)
    )
      return innermostIssue(first, value);
  }
  return issue;
}
