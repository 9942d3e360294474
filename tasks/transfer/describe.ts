import { formatEther } from "ethers";

import { operationKindOf } from "./hops.js";
import type {
  EstimatedFee,
  FeeAsset,
  MsgsTx,
  Route,
} from "../clients/router.js";
import { checkMsg } from "../cosmos/amino.js";
import { defined } from "../errors.js";
import { safeText, formatDuration } from "../output.js";

/**
 * A fee as a hop or the route states it: an amount of an asset, its USD value
 * where given.
 */
interface Fee {
  what: string;
  amount?: string;
  asset?: string;
  /**
   * The asset's denom alone, to tell a fee in the transferred asset from one in
   * another.
   */
  denom?: string;
  usd?: string;
}

const text = (value: unknown) =>
  typeof value === "string" && value !== "" ? value : undefined;
// The spec leaves a bridge id untyped: examples send a string, a number is as
// plain.
const idText = (value: unknown) =>
  typeof value === "number" ? String(value) : text(value);

function assetName(asset: unknown, fallback?: string): string | undefined {
  if (typeof asset !== "object" || asset === null) return fallback;
  const { denom, symbol } = asset as FeeAsset;
  const base = text(denom) ?? fallback;
  return text(symbol) !== undefined && symbol !== base
    ? `${base ?? "?"} (${symbol})`
    : base;
}

/** A fee amount of a hop, when it is there and not zero. */
function hopFee(
  what: string,
  amount: unknown,
  asset: unknown,
  usd: unknown,
): Fee[] {
  const value = text(amount);
  if (value === undefined || /^0+$/.test(value)) return [];
  const denom =
    typeof asset === "string"
      ? asset
      : text((asset as FeeAsset | undefined)?.denom);
  return [
    {
      what,
      amount: value,
      asset: typeof asset === "string" ? asset : assetName(asset),
      denom,
      usd: text(usd),
    },
  ];
}

/**
 * The fees a hop's bridge or venue charges, by the fields each operation kind
 * has in Skip's schema.
 */
function feesOf(kind: string, body: Record<string, unknown>): Fee[] {
  const relayQuote = body.smart_relay_fee_quote as
    { fee_amount?: unknown; fee_denom?: unknown } | null | undefined;
  const relay =
    relayQuote === undefined || relayQuote === null
      ? []
      : hopFee(
          "smart relay fee",
          relayQuote.fee_amount,
          text(relayQuote.fee_denom),
          undefined,
        );
  const bridgeFee = hopFee(
    `${kind.replace(/_transfer$/, "").replace(/_/g, " ")} fee`,
    body.fee_amount,
    body.fee_asset,
    body.usd_fee_amount,
  );
  switch (kind) {
    case "go_fast_transfer": {
      const fee = (body.fee ?? {}) as Record<string, unknown>;
      const asset = fee.fee_asset;
      return [
        ...hopFee("Go Fast fee", fee.bps_fee_amount, asset, fee.bps_fee_usd),
        ...hopFee(
          "Go Fast source-chain fee",
          fee.source_chain_fee_amount,
          asset,
          fee.source_chain_fee_usd,
        ),
        ...hopFee(
          "Go Fast destination-chain fee",
          fee.destination_chain_fee_amount,
          asset,
          fee.destination_chain_fee_usd,
        ),
      ];
    }
    case "stargate_transfer":
      return [
        ...hopFee(
          "Stargate OFT fee",
          body.oft_fee_amount,
          body.oft_fee_asset,
          body.oft_fee_amount_usd,
        ),
        ...hopFee(
          "Stargate messaging fee",
          body.messaging_fee_amount,
          body.messaging_fee_asset,
          body.messaging_fee_amount_usd,
        ),
      ];
    case "layer_zero_transfer":
      return hopFee(
        "LayerZero messaging fee",
        body.messaging_fee_amount,
        body.messaging_fee_asset,
        body.messaging_fee_amount_usd,
      );
    case "swap": {
      // "0uosmo": an amount and a denom in one string.
      const affiliate = /^(\d+)(.*)$/.exec(
        text(body.estimated_affiliate_fee) ?? "",
      );
      return affiliate === null
        ? []
        : hopFee(
            "affiliate fee",
            affiliate[1],
            affiliate[2] || undefined,
            undefined,
          );
    }
    default:
      return [...bridgeFee, ...relay];
  }
}

/**
 * The hop itself in words, by kind; an unknown kind is described from the
 * fields every hop tends to have.
 */
function hopText(kind: string, body: Record<string, unknown>): string {
  const from = text(body.from_chain_id) ?? text(body.chain_id) ?? "?";
  const to = text(body.to_chain_id) ?? text(body.chain_id) ?? from;
  const denomIn = text(body.denom_in) ?? text(body.denom) ?? "?";
  const denomOut =
    text(body.denom_out) ?? text(body.dest_denom) ?? text(body.denom) ?? "?";
  const denoms = `${denomIn} → ${denomOut}`;
  const path = `${from} → ${to}, ${denoms}`;
  switch (kind) {
    case "transfer":
      return `IBC ${text(body.port) ?? "transfer"}/${text(body.channel) ?? "?"}: ${path}`;
    case "op_init_transfer":
      return `OPinit bridge ${idText(body.op_init_bridge_id) ?? "?"}: ${path}`;
    case "swap":
      return `swap on ${venues(body)}: ${from} → ${to}, ${denoms}`;
    case "evm_swap":
      return `EVM swap on ${venues(body)}: ${from} → ${to}, ${denoms}`;
    case "bank_send":
      return `bank send on ${text(body.chain_id) ?? "?"} of ${text(body.denom) ?? "?"}`;
    case "axelar_transfer":
      return `Axelar${text(body.asset) === undefined ? "" : ` (${text(body.asset)})`}: ${path}`;
    case "cctp_transfer":
    case "cctp_transfer_v2":
      return `CCTP${kind.endsWith("v2") ? " v2" : ""} (burns ${text(body.burn_token) ?? "?"}): ${path}`;
    case "hyperlane_transfer":
      return `Hyperlane: ${path}`;
    case "go_fast_transfer":
      return `Go Fast: ${path}`;
    case "stargate_transfer":
      return `Stargate: ${path}`;
    case "layer_zero_transfer":
      return `LayerZero: ${path}`;
    case "eureka_transfer":
      return `IBC Eureka: ${path}`;
    default:
      return `${kind}: ${path}`;
  }
}

function describeFee(fee: Fee): string {
  return `${fee.what} ${fee.amount ?? "?"} ${fee.asset ?? ""}${fee.usd === undefined ? "" : ` ($${fee.usd})`}`
    .replace(/ {2,}/g, " ")
    .trim();
}

interface HopFee extends Fee {
  onTop: boolean;
  /**
   * The route's `estimated_fees` lists this very fee (same operation, same
   * asset): it is counted there.
   */
  inRouteFees: boolean;
}

/**
 * A hop's fees, each marked by who pays it how: where the route's
 * `estimated_fees` names it (by `operation_index`), as that says; else, in an
 * asset the hop moves, the bridge takes it out of the amount, and in another
 * asset (the source chain's native token, for one) the sender pays it on top.
 */
function hopFees(route: Route, index: number): HopFee[] {
  const operation = defined(
    route.operations[index],
    "callers pass the index of one of the route's operations",
  );
  const { kind, body } = operationKindOf(operation);
  const moved = new Set(
    [
      text(body.denom_in),
      text(body.denom_out),
      text(body.denom),
      route.source_asset_denom,
    ].filter((d) => d !== undefined),
  );
  return feesOf(kind, body).map((fee) => {
    const listed = (route.estimated_fees ?? []).find(
      (e) => e.operation_index === index && e.origin_asset?.denom === fee.denom,
    );
    if (listed !== undefined)
      return {
        ...fee,
        onTop: listed.fee_behavior === "FEE_BEHAVIOR_ADDITIONAL",
        inRouteFees: true,
      };
    return {
      ...fee,
      onTop: fee.denom === undefined || !moved.has(fee.denom),
      inRouteFees: false,
    };
  });
}

/**
 * One hop of a route in words, and its fees: the bridge or venue, from → to
 * chain, denom in → out, amounts.
 */
function describeOperation(
  route: Route,
  index: number,
): { line: string; fees: string[] } {
  const operation = defined(
    route.operations[index],
    "callers pass the index of one of the route's operations",
  );
  const { kind, body } = operationKindOf(operation);
  const amounts =
    operation.amount_in === undefined && operation.amount_out === undefined
      ? ""
      : `, ${operation.amount_in ?? "?"} → ${operation.amount_out ?? "?"}`;
  const tx =
    operation.tx_index === undefined ? "" : ` (tx ${operation.tx_index + 1})`;
  const fees = hopFees(route, index).map(
    (fee) =>
      `${describeFee(fee)}, ${fee.onTop ? "paid on top of the amount" : "taken from the amount"}` +
      (fee.inRouteFees ? " (listed in the fees below)" : ""),
  );
  return { line: `${index + 1}. ${hopText(kind, body)}${amounts}${tx}`, fees };
}

/**
 * An `estimated_fees[]` item in words: amount, asset, kind, USD, and whether it
 * comes on top of the amount.
 */
function describeEstimatedFee(fee: EstimatedFee): string {
  const kind = fee.fee_type ?? fee.bridge_id ?? "fee";
  const usd = fee.usd_amount == null ? "" : `, $${fee.usd_amount}`;
  const behavior =
    fee.fee_behavior === "FEE_BEHAVIOR_ADDITIONAL"
      ? ", charged on top of the amount"
      : fee.fee_behavior === "FEE_BEHAVIOR_DEDUCTED"
        ? ", deducted from the amount"
        : "";
  return `${fee.amount ?? "?"} ${assetName(fee.origin_asset) ?? ""} (${kind}${usd}${behavior})`.replace(
    / {2,}/g,
    " ",
  );
}

/**
 * What the sender pays beyond the amount, summed per asset: the route's fees
 * charged on top (`FEE_BEHAVIOR_ADDITIONAL`) and the hops' fees in an asset
 * other than the one moved; with their USD value when every one of them is
 * priced.
 */
function beyondTheAmount(route: Route): string {
  const onTop = [
    ...(route.estimated_fees ?? [])
      .filter((f) => f.fee_behavior === "FEE_BEHAVIOR_ADDITIONAL")
      .map((f) => ({
        key: f.origin_asset?.denom ?? "?",
        asset: assetName(f.origin_asset) ?? "?",
        amount: f.amount ?? "0",
        usd: f.usd_amount ?? undefined,
      })),
    ...route.operations
      .flatMap((_, i) => hopFees(route, i))
      .filter((f) => f.onTop && !f.inRouteFees)
      .map((f) => ({
        key: f.denom ?? f.asset ?? "?",
        asset: f.asset ?? "?",
        amount: f.amount ?? "0",
        usd: f.usd,
      })),
  ];
  if (onTop.length === 0) return "gas only";
  const sums = new Map<string, { asset: string; amount: bigint }>();
  for (const fee of onTop) {
    if (!/^\d+$/.test(fee.amount)) continue;
    const sum = sums.get(fee.key) ?? { asset: fee.asset, amount: 0n };
    sums.set(fee.key, {
      asset: sum.asset,
      amount: sum.amount + BigInt(fee.amount),
    });
  }
  const priced = onTop.every(
    (f) => f.usd !== undefined && !Number.isNaN(Number(f.usd)),
  );
  const usd = onTop.reduce((sum, f) => sum + Number(f.usd ?? 0), 0);
  const amounts = [...sums.values()]
    .map(({ asset, amount }) => `${amount} ${asset}`)
    .join(" + ");
  return `${amounts}${priced ? ` ($${usd.toFixed(2)})` : ""}, plus gas`;
}

/**
 * The whole route as lines: amounts, each hop with its fees, transactions,
 * duration, fees, warnings, the op hook.
 */
export function describeRoute(route: Route): string[] {
  const pad = " ".repeat(22);
  const hops = route.operations.flatMap((_, i) => {
    const { line, fees } = describeOperation(route, i);
    return [
      `${i === 0 ? "hops                  " : pad}${line}`,
      ...fees.map((fee) => `${pad}   ${fee}`),
    ];
  });
  const estimated = route.estimated_fees ?? [];
  const anyHopFee = route.operations.some(
    (_, i) => hopFees(route, i).length > 0,
  );
  const lines = [
    `amount in             ${route.amount_in} ${route.source_asset_denom} ` +
      `on ${route.source_asset_chain_id}${usd(route.usd_amount_in)}`,
    `expected out          ${route.estimated_amount_out ?? route.amount_out} ` +
      `${route.dest_asset_denom} on ${route.dest_asset_chain_id}${usd(route.usd_amount_out)}`,
    ...(hops.length === 0 ? ["hops                  none listed"] : hops),
    `transactions          ${route.txs_required ?? "?"} to sign` +
      (route.required_chain_addresses == null
        ? ""
        : ` (chains that need an address: ${route.required_chain_addresses.join(", ")})`),
    `estimated duration    ${
      route.estimated_route_duration_seconds == null
        ? "not given"
        : formatDuration(route.estimated_route_duration_seconds)
    }`,
    ...(estimated.length === 0
      ? [
          `fees                  ${anyHopFee ? "only the hops' fees above" : "none beyond gas"}`,
        ]
      : estimated.map(
          (fee, i) =>
            `${i === 0 ? "fees                  " : pad}${describeEstimatedFee(fee)}`,
        )),
    `beyond the amount     ${beyondTheAmount(route)}`,
    `op hook               ${
      route.required_op_hook === true
        ? "required: the destination must sign a hook before the transfer (see docs/moving-tokens.md)"
        : "not required"
    }`,
  ];
  const warnings = [
    ...(route.warning
      ? [`${route.warning.type}: ${route.warning.message}`]
      : []),
    ...(route.extra_warnings ?? []),
  ].map((warning) => safeText(warning));
  for (const warning of warnings)
    lines.push(`warning               ${warning}`);
  for (const info of route.extra_infos ?? [])
    lines.push(`note                  ${info}`);
  return lines;
}

/**
 * The venue names of a swap operation: its `swap_venues`, else its
 * `swap_in`/`swap_out`'s venue.
 */
function venues(body: Record<string, unknown>): string {
  const listed = Array.isArray(body.swap_venues)
    ? (body.swap_venues as { name?: string }[]).map((v) => v.name)
    : [];
  const inner = (
    (body.swap_in ?? body.swap_out ?? body.smart_swap_in) as
      { swap_venue?: { name?: string } } | undefined
  )?.swap_venue?.name;
  const names = [
    ...new Set(
      [...listed, inner].filter((n): n is string => typeof n === "string"),
    ),
  ];
  return names.length === 0 ? "an unnamed venue" : names.join(", ");
}

/**
 * What will be signed, for the confirmation prompt: each transaction's chain
 * and signer, its messages or call in words.
 */
export function describeTransactions(
  txs: MsgsTx[],
  signer: { hex: string; bech32: string },
): string[] {
  return txs.flatMap((tx, i) => {
    const head = `transaction ${i + 1} of ${txs.length}`;
    if ("cosmos_tx" in tx) {
      const cosmos = tx.cosmos_tx;
      return [
        `${head} on ${cosmos.chain_id} (Cosmos), signed by ${signer.bech32}`,
        ...cosmos.msgs.map(
          (msg, j) =>
            `  ${checkMsg(msg, `transaction ${i + 1}, message ${j + 1}`).description}`,
        ),
        `  fee: the chain's gas price for the simulated gas (+40%), shown when signed`,
      ];
    }
    if (!("evm_tx" in tx)) return [`${head}: not signable here`];
    const evm = tx.evm_tx;
    return [
      `${head} on chain ${evm.chain_id}, signed by ${signer.hex}`,
      `  to ${evm.to}, value ${nativeValue(evm.value)}, ` +
        `${(evm.data.length - (evm.data.startsWith("0x") ? 2 : 0)) / 2} bytes of call data`,
      ...evm.required_erc20_approvals.map(
        (a) =>
          `  approval first: ${a.amount} of token ${a.token_contract} to ${a.spender} (exactly the amount)`,
      ),
    ];
  });
}

/** A USD amount the routing API gives, in parentheses; "" when it gives none. */
function usd(amount: string | null | undefined): string {
  return amount == null ? "" : ` ($${amount})`;
}

/** An EVM transaction's value in the native token, or "none". */
function nativeValue(value: string): string {
  return value === "" || value === "0"
    ? "none"
    : `${formatEther(BigInt(value))} (native)`;
}
