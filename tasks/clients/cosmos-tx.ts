import { z } from "zod";

import { ERRORS } from "../error-catalog.js";
import { VipError, defined } from "../errors.js";
import { describeEndpoint, expectShape, requestJson } from "./http.js";
import { withRetry } from "../network/retry.js";

// A Cosmos chain's REST API (the base chain or a rollup), for transactions:
// accounts, simulation, gas prices, broadcast and lookup by hash. Read-only
// calls are retried on transport failures; a broadcast is sent once (sending
// the same signed bytes again is harmless, and the caller decides when to).

const u64 = z.string().regex(/^\d+$/, "must be a u64 as a decimal string");
const decimal = z.string().regex(/^\d+(\.\d+)?$/, "must be a decimal number");

/**
 * An account's number and next sequence on a chain, as `account_info` reports
 * them.
 */
export interface AccountState {
  accountNumber: bigint;
  sequence: bigint;
}

const accountInfoAnswer = z.object({
  info: z
    .object({ address: z.string(), account_number: u64, sequence: u64 })
    .passthrough(),
});

/**
 * `GET /cosmos/auth/v1beta1/account_info/{address}`: the account's number and
 * next sequence; undefined if the chain has no such account yet.
 */
export async function accountInfo(
  restUrl: string,
  bech32: string,
): Promise<AccountState | undefined> {
  const path = `/cosmos/auth/v1beta1/account_info/${bech32}`;
  const answer = await withRetry(
    `GET ${describeEndpoint(restUrl, "/cosmos/auth/v1beta1/account_info")}`,
    () => requestJson(restUrl, path, { method: "GET", undefinedFor: [404] }),
  );
  if (answer === undefined) return undefined;
  const { info } = expectShape(
    accountInfoAnswer,
    answer,
    `account info at ${describeEndpoint(restUrl, "/cosmos/auth/v1beta1/account_info")}`,
  );
  return {
    accountNumber: BigInt(info.account_number),
    sequence: BigInt(info.sequence),
  };
}

/**
 * What a chain says of a transaction: its result code (0 is success), log, and
 * the block that holds it.
 */
export interface TxResult {
  hash: string;
  code: number;
  log: string;
  height?: bigint;
  /** The gas the transaction used, once in a block. */
  gasUsed?: bigint;
}

const txResponse = z
  .object({
    txhash: z.string().min(1),
    code: z.number().int().optional(),
    raw_log: z.string().optional(),
    codespace: z.string().optional(),
    height: u64.optional(),
    // Only kept in the journal: an odd form is no reason to refuse the answer.
    gas_used: z.unknown().optional(),
  })
  .passthrough();

/**
 * `POST /cosmos/tx/v1beta1/txs` in sync mode: the chain's check of the
 * transaction (code 0: in the mempool).
 */
export async function broadcastTx(
  restUrl: string,
  txBytes: Uint8Array,
): Promise<TxResult> {
  const path = "/cosmos/tx/v1beta1/txs";
  const answer = await requestJson(restUrl, path, {
    method: "POST",
    body: {
      tx_bytes: Buffer.from(txBytes).toString("base64"),
      mode: "BROADCAST_MODE_SYNC",
    },
    timeoutMs: 60_000,
  });
  const response = expectShape(
    z.object({ tx_response: txResponse }),
    answer,
    `broadcast at ${describeEndpoint(restUrl, path)}`,
  ).tx_response;
  return {
    hash: response.txhash.toUpperCase(),
    code: response.code ?? 0,
    log: response.raw_log ?? "",
  };
}

/**
 * `GET /cosmos/tx/v1beta1/txs/{hash}`: the transaction once it is in a block;
 * undefined while it is not.
 */
export async function getTx(
  restUrl: string,
  hash: string,
): Promise<TxResult | undefined> {
  const where = describeEndpoint(restUrl, "/cosmos/tx/v1beta1/txs");
  const answer = await withRetry(`GET ${where}`, () =>
    requestJson(restUrl, `/cosmos/tx/v1beta1/txs/${hash}`, {
      method: "GET",
      undefinedFor: [404],
    }),
  );
  if (answer === undefined) return undefined;
  const response = expectShape(
    z.object({ tx_response: txResponse }),
    answer,
    `transaction ${hash} at ${where}`,
  ).tx_response;
  return {
    hash: response.txhash.toUpperCase(),
    code: response.code ?? 0,
    log: response.raw_log ?? "",
    height: response.height === undefined ? undefined : BigInt(response.height),
    gasUsed:
      typeof response.gas_used === "string" && /^\d+$/.test(response.gas_used)
        ? BigInt(response.gas_used)
        : undefined,
  };
}

/**
 * `POST /cosmos/tx/v1beta1/simulate`: the gas the transaction uses; a refusal
 * (insufficient funds, a bad message) fails with the chain's message.
 */
export async function simulateTx(
  restUrl: string,
  txBytes: Uint8Array,
): Promise<bigint> {
  const path = "/cosmos/tx/v1beta1/simulate";
  const answer = await requestJson(restUrl, path, {
    method: "POST",
    body: { tx_bytes: Buffer.from(txBytes).toString("base64") },
    timeoutMs: 60_000,
  });
  return BigInt(
    expectShape(
      z.object({ gas_info: z.object({ gas_used: u64 }).passthrough() }),
      answer,
      `simulation at ${describeEndpoint(restUrl, path)}`,
    ).gas_info.gas_used,
  );
}

/** A gas price: the fee per unit of gas in one denom. */
export interface GasPrice {
  denom: string;
  amount: string;
}

/**
 * The chain's gas prices: Initia's `GET /initia/tx/v1/gas_prices` where the
 * chain has it, else the node's `minimum_gas_price` (`GET
 * /cosmos/base/node/v1beta1/config`, e.g. "0.15uinit,0.01l2/…"); empty when
 * free.
 */
export async function gasPrices(restUrl: string): Promise<GasPrice[]> {
  const initia = await withRetry(
    `GET ${describeEndpoint(restUrl, "/initia/tx/v1/gas_prices")}`,
    () =>
      requestJson(restUrl, "/initia/tx/v1/gas_prices", {
        method: "GET",
        undefinedFor: [404, 501],
      }),
  );
  if (initia !== undefined) {
    return expectShape(
      z.object({
        gas_prices: z.array(
          z.object({ denom: z.string().min(1), amount: decimal }),
        ),
      }),
      initia,
      `gas prices at ${describeEndpoint(restUrl, "/initia/tx/v1/gas_prices")}`,
    ).gas_prices;
  }
  const path = "/cosmos/base/node/v1beta1/config";
  const config = expectShape(
    z.object({ minimum_gas_price: z.string() }).passthrough(),
    await withRetry(`GET ${describeEndpoint(restUrl, path)}`, () =>
      requestJson(restUrl, path, { method: "GET" }),
    ),
    `node config at ${describeEndpoint(restUrl, path)}`,
  );
  return config.minimum_gas_price
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => {
      const match = /^(\d+(?:\.\d+)?)([a-zA-Z][a-zA-Z0-9/:._-]*)$/.exec(part);
      if (match === null)
        throw new VipError(ERRORS.NETWORK.HTTP.GAS_PRICE_INVALID, {
          url: describeEndpoint(restUrl, path),
          part,
        });
      return {
        denom: defined(match[2], "the pattern always captures the denom"),
        amount: defined(match[1], "the pattern always captures the amount"),
      };
    });
}

/**
 * `GET /cosmos/base/tendermint/v1beta1/node_info`: the chain id the endpoint
 * serves.
 */
export async function restChainId(restUrl: string): Promise<string> {
  const path = "/cosmos/base/tendermint/v1beta1/node_info";
  const answer = await withRetry(`GET ${describeEndpoint(restUrl, path)}`, () =>
    requestJson(restUrl, path, { method: "GET" }),
  );
  return expectShape(
    z.object({
      default_node_info: z.object({ network: z.string().min(1) }).passthrough(),
    }),
    answer,
    `node info at ${describeEndpoint(restUrl, path)}`,
  ).default_node_info.network;
}
