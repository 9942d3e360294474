import type { IncomingMessage } from "node:http";

import { Interface } from "ethers";

import type { CosmosChainState } from "./cosmos-chain.js";
import {
  type Handler,
  json,
  startServer,
  type StandInServer,
} from "./server.js";
import { TxRejection, verifySignedOpHook } from "../cosmos/verify.js";
import { defined } from "../errors.js";

/** A route the stand-in knows, keyed by its source and destination assets. */
export interface StandInRoute {
  source: { chainId: string; denom: string };
  dest: { chainId: string; denom: string };
  /** The route's answer, without the echoed request fields. */
  answer: Record<string, unknown>;
  /**
   * How `msgs` answers for it: an `evm_tx` that calls a BridgeStandIn contract
   * (after an ERC-20 approval), or a `cosmos_tx` on an Initia chain: an OPinit
   * deposit from the base chain, or a withdrawal from a rollup.
   */
  msgs?:
    | { evm: { chainId: string; bridge: string; token: string } }
    | {
        cosmos: {
          chainId: string;
          message?: "deposit" | "withdrawal" | "ibc-transfer";
          bridgeId?: string;
          /** The amount in this many transactions, one after the other. */ split?: number;
        };
      };
}

/**
 * The contract the stand-in's op hook calls on the rollup (minievm's ERC-20
 * wrapper, in the real router).
 */
const HOOK_CONTRACT = "0x4f06c4d5f5d8e2f2e3b3c4a1a2b3c4d5e6f70819";

/** How `msgs` may misbehave, for the refusals a client must make. */
type MsgsFault = "none" | "wrong-chain" | "wrong-signer";

type RouterFault = "none" | "429" | "500" | "drop" | "malformed" | "hold";

export interface RouterState {
  routes: StandInRoute[];
  /** Faults the next requests meet, one each, in order (then none). */
  faults: RouterFault[];
  /** Requests per endpoint, and `authorization` headers seen. */
  calls: Record<string, number>;
  authorizations: string[];
  msgsFault: MsgsFault;
  /** `track` calls per transaction hash. */
  tracked: Record<string, number>;
  /** `status` polls per tracked hash, which walk it through `states`. */
  polls: Record<string, number>;
  /**
   * The states a tracked transfer walks through, one per poll, the last one
   * repeated.
   */
  states: string[];
  /**
   * Take `track` requests and never answer them (a client killed while waiting
   * leaves nothing registered).
   */
  holdTrack: boolean;
  /**
   * The Initia chains whose accounts an op hook is checked against (the
   * rollup's), by chain id.
   */
  chains: Record<string, CosmosChainState>;
  /**
   * What `GET /v2/info/chains` answers: Skip's chain entries, with the `rest`
   * Initia's router adds.
   */
  chainList: { chain_id: string; chain_name: string; rest?: string }[];
  /** Op hooks `msgs` received: accepted, or refused with the reason. */
  hooks: { accepted: boolean; reason: string }[];
  /**
   * Answers served as given, by endpoint (`"GET /v2/tx/status"`), one per
   * request, the last one repeated: the corpus of answers the published
   * documents allow (test/corpus/router/), replayed as the real API would send
   * them. A status answer is served only for a tracked hash.
   */
  canned: Record<string, { status: number; answer: unknown }[]>;
  /** The bodies of the route requests received, in order. */
  routeRequests: Record<string, unknown>[];
}

export interface RouterStandIn extends StandInServer {
  state: RouterState;
}

/** Skip Go's error body, with Initia's `info` where the router adds one. */
function apiError(
  status: number,
  code: number,
  message: string,
  info?: string,
) {
  return json(
    { code, message, details: [], ...(info === undefined ? {} : { info }) },
    status,
  );
}

/**
 * Stands in for the routing API (Skip Go v2 + Initia's /op-hook) on 127.0.0.1,
 * answering in the documented shapes: `POST /v2/fungible/route` from a table of
 * routes (an unknown pair is a 400 with the API's error body), with faults
 * injected in order (429, 500, a dropped connection, a malformed answer).
 */
export async function startRouterStandIn(
  initial: Partial<RouterState> = {},
): Promise<RouterStandIn> {
  const state: RouterState = {
    routes: [],
    faults: [],
    calls: {},
    authorizations: [],
    msgsFault: "none",
    tracked: {},
    polls: {},
    states: ["STATE_SUBMITTED", "STATE_PENDING", "STATE_COMPLETED_SUCCESS"],
    holdTrack: false,
    chains: {},
    chainList: [],
    hooks: [],
    canned: {},
    routeRequests: [],
    ...initial,
  };
  const server = await startServer((request, body) =>
    answerRouter(state, request, body),
  );
  return { ...server, state };
}

/** One request to the routing API: counted, then a fault, or its answer. */
function answerRouter(
  state: RouterState,
  request: IncomingMessage,
  body: string,
): Answer {
  const url = new URL(request.url ?? "/", "http://stand-in");
  const endpoint = `${request.method} ${url.pathname}`;
  state.calls[endpoint] = (state.calls[endpoint] ?? 0) + 1;
  const authorization = request.headers.authorization;
  if (typeof authorization === "string")
    state.authorizations.push(authorization);
  const fault = state.faults.shift() ?? "none";
  if (fault === "429")
    return apiError(429, 8, "too many requests", "slow down");
  if (fault === "500") return apiError(500, 2, "internal error");
  if (fault === "drop") {
    request.socket.destroy();
    return { status: 500, body: "" };
  }
  if (fault === "hold") return { status: 200, body: "", hold: true };
  // Parsed only where the endpoint takes a body, as a router reads it.
  const asked = () => JSON.parse(body || "{}") as Record<string, unknown>;
  if (endpoint === "POST /v2/fungible/route") state.routeRequests.push(asked());
  const canned = answerCanned(state, endpoint, url, asked);
  if (canned !== undefined) return canned;
  const malformed = fault === "malformed";
  switch (endpoint) {
    case "POST /v2/fungible/route":
      return answerRoute(state, asked(), malformed);
    case "GET /v2/info/chains":
      return json({
        chains: state.chainList.map((c) => ({
          bech32_prefix: "init",
          chain_type: "cosmos",
          ...c,
        })),
      });
    case "POST /op-hook":
      return answerOpHook(asked());
    case "POST /v2/fungible/msgs":
      return malformed
        ? withoutEvmTarget(answerMsgs(state, asked()))
        : answerMsgs(state, asked());
    case "POST /v2/tx/track":
      return answerTrack(state, asked);
    case "GET /v2/tx/status":
      return answerStatus(state, url);
    default:
      return apiError(404, 5, `unknown endpoint ${endpoint}`);
  }
}

type Answer = ReturnType<Handler>;

/** A request's JSON body, read when the endpoint takes one. */
type Body = () => Record<string, unknown>;

/**
 * The next canned answer of `endpoint`, if it has one (a status answer only
 * for a tracked hash; a canned track still tracks its hash).
 */
function answerCanned(
  state: RouterState,
  endpoint: string,
  url: URL,
  asked: Body,
): Answer | undefined {
  const canned = state.canned[endpoint];
  if (
    canned === undefined ||
    canned.length === 0 ||
    (endpoint === "GET /v2/tx/status" &&
      state.tracked[url.searchParams.get("tx_hash") ?? ""] === undefined)
  )
    return undefined;
  if (endpoint === "POST /v2/tx/track") {
    const hash = (asked() as { tx_hash?: string }).tx_hash ?? "";
    state.tracked[hash] = (state.tracked[hash] ?? 0) + 1;
  }
  const next =
    canned.length > 1
      ? defined(canned.shift(), "more than one canned answer is left")
      : defined(canned[0], "one canned answer is left");
  return json(next.answer, next.status);
}

/** `route`: the known route's answer, with the request's fields echoed. */
function answerRoute(
  state: RouterState,
  asked: Record<string, unknown>,
  malformed: boolean,
): Answer {
  const route = findRoute(state, asked);
  if (route === undefined) {
    return apiError(
      400,
      3,
      `no routes found for ${String(asked.source_asset_denom)} on ` +
        `${String(asked.source_asset_chain_id)} to ${String(asked.dest_asset_denom)} on ` +
        String(asked.dest_asset_chain_id),
      "check the denoms and chain ids",
    );
  }
  const answer: Record<string, unknown> = {
    source_asset_denom: asked.source_asset_denom,
    source_asset_chain_id: asked.source_asset_chain_id,
    dest_asset_denom: asked.dest_asset_denom,
    dest_asset_chain_id: asked.dest_asset_chain_id,
    amount_in: asked.amount_in,
    ...route.answer,
  };
  if (malformed) delete answer.operations;
  return json(answer);
}

/** A `msgs` answer whose first EVM transaction lost its `to`. */
function withoutEvmTarget(answer: Answer): Answer {
  if (answer.status !== 200) return answer;
  const { txs, ...rest } = JSON.parse(answer.body) as {
    txs: { evm_tx?: Record<string, unknown> }[];
  };
  delete txs[0]?.evm_tx?.to;
  return json({ txs, ...rest });
}

/** `track`: registers the hash (or holds the request, never answered). */
function answerTrack(state: RouterState, asked: Body): Answer {
  if (state.holdTrack) return { status: 200, body: "", hold: true };
  const { tx_hash: hash, chain_id: chainId } = asked();
  if (typeof hash !== "string" || typeof chainId !== "string")
    return apiError(400, 3, "tx_hash and chain_id are required");
  state.tracked[hash] = (state.tracked[hash] ?? 0) + 1;
  return json({
    tx_hash: hash,
    explorer_link: `https://explorer.example/tx/${hash}`,
  });
}

/** `status`: a tracked hash walks through `states`, one per poll. */
function answerStatus(state: RouterState, url: URL): Answer {
  const hash = url.searchParams.get("tx_hash") ?? "";
  if (state.tracked[hash] === undefined)
    return apiError(404, 5, "tx not found");
  const poll = (state.polls[hash] = (state.polls[hash] ?? 0) + 1);
  const transferState = defined(
    state.states[Math.min(poll, state.states.length) - 1],
    "a transfer has at least one state, the last one repeated",
  );
  return json(
    statusAnswer(transferState, url.searchParams.get("chain_id") ?? ""),
  );
}

/**
 * A route as the base chain's router answers one to an EVM rollup: one OPinit
 * hop, with the op hook and an estimated duration; amounts scale with
 * `amountIn`.
 */
export function opinitRoute(options: {
  from: string;
  to: string;
  denomIn: string;
  denomOut: string;
  bridgeId: string;
  amountIn: bigint;
  opHook: boolean;
}): StandInRoute {
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

const bridgeInterface = new Interface([
  "function deposit(address token, uint256 amount, string destChain, string recipient)",
]);

/**
 * The stand-in's route between the request's source and destination assets
 * (route and msgs ask alike).
 */
function findRoute(
  state: RouterState,
  asked: Record<string, unknown>,
): StandInRoute | undefined {
  return state.routes.find(
    (r) =>
      r.source.chainId === asked.source_asset_chain_id &&
      r.source.denom === asked.source_asset_denom &&
      r.dest.chainId === asked.dest_asset_chain_id &&
      r.dest.denom === asked.dest_asset_denom,
  );
}

/**
 * `msgs` for a known route: the transaction(s) to sign, addressed from
 * `address_list`.
 */
function answerMsgs(
  state: RouterState,
  asked: Record<string, unknown>,
): Answer {
  const route = findRoute(state, asked);
  if (route?.msgs === undefined)
    return apiError(400, 3, "no route for these assets");
  const addresses = (asked.address_list ?? []) as string[];
  const required = route.answer.required_chain_addresses as
    string[] | undefined;
  if (addresses.length !== (required?.length ?? 0)) {
    return apiError(
      400,
      3,
      "address_list must have one address per required chain",
    );
  }
  if (route.answer.required_op_hook === true) {
    const refusal = checkOpHook(state, route, asked, addresses);
    state.hooks.push({
      accepted: refusal === undefined,
      reason: refusal ?? "",
    });
    if (refusal !== undefined)
      return apiError(400, 3, refusal, "sign the hook from /op-hook");
  }
  // Checked above: one address per required chain, the sender's first and
  // the recipient's last.
  const sender = defined(addresses[0], "address_list names the sender");
  const to = defined(addresses.at(-1), "address_list names the recipient");
  const txs =
    "cosmos" in route.msgs
      ? cosmosTxs(route.msgs.cosmos, asked, sender, to)
      : [evmTx(state, route.msgs.evm, asked, sender, to)];
  return json({
    txs,
    min_amount_out: route.answer.amount_out,
    estimated_fees: [],
  });
}

/**
 * The Cosmos transaction(s) of a route on an Initia chain: an OPinit deposit,
 * a withdrawal or an IBC transfer, the amount split across `split` of them.
 */
function cosmosTxs(
  msgs: Extract<StandInRoute["msgs"], { cosmos: unknown }>["cosmos"],
  asked: Record<string, unknown>,
  sender: string,
  to: string,
) {
  const { chainId, message = "deposit", bridgeId = "16", split = 1 } = msgs;
  const total = BigInt(String(asked.amount_in));
  return Array.from({ length: split }, (_, i) => {
    const amount = {
      denom: String(asked.source_asset_denom),
      amount: (
        total / BigInt(split) +
        (i === 0 ? total % BigInt(split) : 0n)
      ).toString(),
    };
    return {
      cosmos_tx: {
        chain_id: chainId,
        path: [chainId, String(asked.dest_asset_chain_id)],
        signer_address: sender,
        msgs: [cosmosMsg(message, bridgeId, sender, to, amount)],
      },
      operations_indices: [0],
    };
  });
}

/**
 * One message of a Cosmos route. Numbers as numbers and fields left out, as
 * routers do: the client must rebuild the chain's amino JSON.
 */
function cosmosMsg(
  message: "deposit" | "withdrawal" | "ibc-transfer",
  bridgeId: string,
  sender: string,
  to: string,
  amount: { denom: string; amount: string },
) {
  switch (message) {
    case "deposit":
      return {
        msg_type_url: "/opinit.ophost.v1.MsgInitiateTokenDeposit",
        msg: JSON.stringify({
          sender,
          bridge_id: Number(bridgeId),
          to,
          amount,
        }),
      };
    case "ibc-transfer":
      return {
        msg_type_url: "/ibc.applications.transfer.v1.MsgTransfer",
        msg: skipMsgTransfer(sender, to, amount),
      };
    case "withdrawal":
      return {
        msg_type_url: "/opinit.opchild.v1.MsgInitiateTokenWithdrawal",
        msg: JSON.stringify({ sender, to, amount }),
      };
  }
}

/**
 * The EVM transaction of a route from an EVM chain: a BridgeStandIn deposit,
 * after an ERC-20 approval; `msgsFault` makes it wrong as a client must
 * refuse.
 */
function evmTx(
  state: RouterState,
  {
    chainId,
    bridge,
    token,
  }: { chainId: string; bridge: string; token: string },
  asked: Record<string, unknown>,
  sender: string,
  to: string,
) {
  const amount = String(asked.amount_in);
  const data = bridgeInterface
    .encodeFunctionData("deposit", [
      token,
      BigInt(amount),
      String(asked.dest_asset_chain_id),
      to,
    ])
    .slice(2);
  return {
    evm_tx: {
      chain_id: state.msgsFault === "wrong-chain" ? "1" : chainId,
      to: bridge,
      value: "0",
      data,
      required_erc20_approvals: [
        { amount, spender: bridge, token_contract: token },
      ],
      signer_address:
        state.msgsFault === "wrong-signer"
          ? "0x000000000000000000000000000000000000dEaD"
          : sender,
    },
    operations_indices: [0],
  };
}

/**
 * The nanosecond timeout Skip puts in an IBC transfer: above 2^53, so
 * `JSON.parse` would round its last digits.
 */
export const SKIP_TIMEOUT_TIMESTAMP = "1795450000000000123";

/**
 * An IBC `MsgTransfer` as Skip's API writes it inside `msg` (its swagger's msgs
 * example): `timeout_height` an empty object and `timeout_timestamp` a bare
 * JSON number of nanoseconds, written here by hand so no digit is lost on the
 * way out.
 */
function skipMsgTransfer(
  sender: string,
  receiver: string,
  token: { denom: string; amount: string },
): string {
  const head = JSON.stringify({
    source_port: "transfer",
    source_channel: "channel-25",
    token,
    sender,
    receiver,
    timeout_height: {},
  });
  return `${head.slice(0, -1)},"timeout_timestamp":${SKIP_TIMEOUT_TIMESTAMP},"memo":""}`;
}

/**
 * `/op-hook`: the hook the destination account signs, a MsgCall on the
 * destination chain (as the router returns it, without the fields a MsgCall
 * leaves empty).
 */
function answerOpHook(asked: Record<string, unknown>) {
  const missing = [
    "source_address",
    "source_asset_chain_id",
    "source_asset_denom",
    "dest_address",
    "dest_asset_chain_id",
    "dest_asset_denom",
  ].find((k) => typeof asked[k] !== "string" || asked[k] === "");
  if (missing !== undefined) return apiError(400, 3, `${missing} is required`);
  if (!String(asked.dest_address).startsWith("init1"))
    return apiError(400, 3, "dest_address must be a bech32 init1 address");
  const input = hookInterface.encodeFunctionData("wrap", [
    String(asked.dest_asset_denom),
    6,
  ]);
  return json({
    chain_id: asked.dest_asset_chain_id,
    hook: [
      {
        msg_type_url: "/minievm.evm.v1.MsgCall",
        msg: JSON.stringify({
          sender: asked.dest_address,
          contract_addr: HOOK_CONTRACT,
          input,
          value: "0",
        }),
      },
    ],
  });
}

const hookInterface = new Interface([
  "function wrap(string denom, uint8 decimals)",
]);

/**
 * Why `msgs` refuses the request's op hook, verified as the rollup will verify
 * it; undefined when it is good.
 */
function checkOpHook(
  state: RouterState,
  route: StandInRoute,
  asked: Record<string, unknown>,
  addresses: string[],
): string | undefined {
  const signed = asked.signed_op_hook as
    { signer?: unknown; hook?: unknown } | undefined;
  if (signed === undefined) return "op hook is required";
  if (typeof signed.signer !== "string" || typeof signed.hook !== "string")
    return "invalid op hook: signer and hook are required";
  if (signed.signer !== addresses[addresses.length - 1])
    return (
      `invalid op hook: signed by ${signed.signer}, ` +
      "not by the destination address"
    );
  const chain = state.chains[route.dest.chainId];
  if (chain === undefined)
    return `invalid op hook: unknown chain ${route.dest.chainId}`;
  try {
    const verified = verifySignedOpHook(signed.hook, {
      chainId: chain.chainId,
      account: (address) => chain.accounts[address],
      sequenceOffset: route.source.chainId === route.dest.chainId ? 2n : 0n,
    });
    if (verified.signer !== signed.signer)
      return `invalid op hook: its messages are signed by ${verified.signer}`;
    return undefined;
  } catch (error) {
    const reason =
      error instanceof TxRejection
        ? error.log
        : error instanceof Error
          ? error.message
          : String(error);
    return `invalid op hook: ${reason}`;
  }
}

/**
 * The status of a tracked transfer in `state`: one hop, its own state following
 * the transfer's.
 */
function statusAnswer(transferState: string, chainId: string) {
  const failed = [
    "STATE_COMPLETED_ERROR",
    "STATE_ABANDONED",
    "STATE_PENDING_ERROR",
  ].includes(transferState);
  const hopState =
    transferState === "STATE_COMPLETED_SUCCESS"
      ? "OPINIT_TRANSFER_RECEIVED"
      : transferState === "STATE_SUBMITTED"
        ? "OPINIT_TRANSFER_UNKNOWN"
        : "OPINIT_TRANSFER_SENT";
  const transfer = {
    state: transferState,
    transfer_sequence: [
      {
        op_init_transfer: {
          from_chain_id: chainId,
          to_chain_id: "rehearsal-1",
          state: hopState,
          txs: { send_tx: null, receive_tx: null },
        },
      },
    ],
    next_blocking_transfer: null,
    transfer_asset_release: failed
      ? {
          chain_id: chainId,
          denom: "the source token",
          amount: "1000000",
          released: transferState !== "STATE_PENDING_ERROR",
        }
      : null,
    error: failed
      ? {
          type: "STATUS_ERROR_TRANSFER",
          message: `the stand-in ended it in ${transferState}`,
          details: {},
        }
      : null,
  };
  return {
    transfers: [transfer],
    state: transferState,
    status:
      transferState.startsWith("STATE_COMPLETED") || failed
        ? "STATE_COMPLETED"
        : "STATE_PENDING",
  };
}

/**
 * A two-hop route from an EVM chain: a swap on the source chain, then an IBC
 * transfer, as routes through other ecosystems come back (two transactions'
 * worth of operations in one).
 */
export function swapAndTransferRoute(options: {
  from: string;
  to: string;
  denomIn: string;
  swapDenom: string;
  denomOut: string;
  amountIn: bigint;
}): StandInRoute {
  const amountIn = options.amountIn.toString();
  const swapped = ((options.amountIn * 99n) / 100n).toString();
  return {
    source: { chainId: options.from, denom: options.denomIn },
    dest: { chainId: options.to, denom: options.denomOut },
    answer: {
      amount_out: swapped,
      estimated_amount_out: swapped,
      operations: [
        {
          swap: {
            swap_in: {
              swap_venue: { name: "uniswap", chain_id: options.from },
              swap_operations: [],
            },
            estimated_affiliate_fee: "0",
            from_chain_id: options.from,
            chain_id: options.from,
            denom_in: options.denomIn,
            denom_out: options.swapDenom,
            swap_venues: [{ name: "uniswap", chain_id: options.from }],
          },
          tx_index: 0,
          amount_in: amountIn,
          amount_out: swapped,
        },
        {
          transfer: {
            port: "transfer",
            channel: "channel-7",
            from_chain_id: options.from,
            to_chain_id: options.to,
            denom_in: options.swapDenom,
            denom_out: options.denomOut,
            bridge_id: "IBC",
            pfm_enabled: false,
            supports_memo: true,
            smart_relay: false,
          },
          tx_index: 0,
          amount_in: swapped,
          amount_out: swapped,
        },
      ],
      chain_ids: [options.from, options.to],
      required_chain_addresses: [options.from, options.to],
      txs_required: 1,
      estimated_route_duration_seconds: 600,
      does_swap: true,
      estimated_fees: [
        {
          fee_type: "SMART_RELAY",
          amount: "2500",
          origin_asset: { denom: options.denomIn, symbol: "TEST" },
          chain_id: options.from,
          tx_index: 0,
        },
      ],
      warning: {
        type: "BAD_PRICE_WARNING",
        message: "the swap's price impact is 1%",
      },
      required_op_hook: false,
      extra_warnings: [],
      extra_infos: [],
    },
  };
}
