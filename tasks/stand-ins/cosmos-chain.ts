import { json } from "./server.js";
import type { AccountState, GasPrice } from "../clients/cosmos-tx.js";
import type { CheckedMsg } from "../cosmos/amino.js";
import { feeFor } from "../cosmos/fees.js";
import { txHash } from "../cosmos/sign.js";
import { TxRejection, type VerifiedTx, verifyTx } from "../cosmos/verify.js";
import { defined } from "../errors.js";

/** A transaction the stand-in took into a block. */
interface IncludedTx {
  hash: string;
  height: bigint;
  code: number;
  log: string;
  signer: string;
  msgs: CheckedMsg[];
  mode: VerifiedTx["mode"];
  /** The fee's gas limit, and what the transaction used of it. */
  gasWanted: string;
  gasUsed: bigint;
}

/**
 * An Initia chain's transaction side, as its REST API shows it: accounts
 * (number and next sequence), transactions by hash, gas prices. Mounted by the
 * base-chain and rollup REST stand-ins.
 */
export interface CosmosChainState {
  chainId: string;
  accounts: Record<string, AccountState>;
  included: Record<string, IncludedTx>;
  height: bigint;
  /** Broadcast requests received, and those refused (by code). */
  broadcasts: number;
  refusals: { code: number; log: string }[];
  /**
   * Initia's `/initia/tx/v1/gas_prices`; undefined: the chain has no such
   * endpoint (a rollup), and the node config's minimum gas price is asked.
   */
  gasPrices?: GasPrice[];
  minimumGasPrice: string;
  /** What `simulate` answers as gas used. */
  gasUsed: bigint;
  /**
   * How the next broadcast is handled, then back to "answer": "hold-after"
   * takes it into a block and never answers (a client killed waiting finds it
   * by hash); "hold-before" never answers and drops it (a client killed waiting
   * must send the same bytes again); "hold-in-mempool" checks it, keeps it
   * pending and never answers: it enters a block once asked for by hash
   * `mempoolQueries` times (a restarted client that waits finds it).
   */
  broadcastMode: "answer" | "hold-after" | "hold-before" | "hold-in-mempool";
  /**
   * Transactions taken but not yet in a block, with how often they were asked
   * for by hash.
   */
  mempool: Record<string, { bytes: Uint8Array; queries: number }>;
  mempoolQueries: number;
  /**
   * The next included transaction fails in its block with this code and log
   * (e.g. out of gas).
   */
  failNext?: { code: number; log: string };
}

export function cosmosChainState(
  chainId: string,
  initial: Partial<CosmosChainState> = {},
): CosmosChainState {
  return {
    chainId,
    accounts: {},
    included: {},
    height: 100n,
    broadcasts: 0,
    refusals: [],
    minimumGasPrice: "0.015uinit",
    gasUsed: 120_000n,
    broadcastMode: "answer",
    mempool: {},
    mempoolQueries: 3,
    ...initial,
  };
}

const notFound = (message: string) =>
  json({ code: 5, message, details: [] }, 404);

/**
 * Answers a chain's transaction endpoints, verifying every broadcast as the
 * chain's ante handler would (decoded, sign bytes rebuilt, the eth_secp256k1
 * signature checked against account number, sequence and chain id) and refusing
 * in the chain's shape. Each included transaction bumps its signer's sequence
 * by one (a minievm rollup bumps it once more per MsgCall; this stand-in does
 * not model that). Undefined for other paths.
 */
export function answerCosmosChain(
  chain: CosmosChainState,
  method: string | undefined,
  url: URL,
  body: string,
) {
  const path = url.pathname;
  if (
    method === "GET" &&
    path === "/cosmos/base/tendermint/v1beta1/node_info"
  ) {
    return json({
      default_node_info: {
        network: chain.chainId,
        moniker: "stand-in",
        version: "0.38.17",
      },
      application_version: { name: "initia", app_name: "initiad" },
    });
  }
  if (
    method === "GET" &&
    path.startsWith("/cosmos/auth/v1beta1/account_info/")
  ) {
    const address = defined(path.split("/").pop(), "a split has a last part");
    const account = chain.accounts[address];
    if (account === undefined) return notFound(`account ${address} not found`);
    return json({
      info: {
        address,
        pub_key: null,
        account_number: account.accountNumber.toString(),
        sequence: account.sequence.toString(),
      },
    });
  }
  if (method === "GET" && path === "/initia/tx/v1/gas_prices") {
    if (chain.gasPrices === undefined)
      return json({ code: 12, message: "Not Implemented", details: [] }, 501);
    return json({ gas_prices: chain.gasPrices });
  }
  if (method === "GET" && path === "/cosmos/base/node/v1beta1/config") {
    return json({
      minimum_gas_price: chain.minimumGasPrice,
      pruning_keep_recent: "0",
      pruning_interval: "0",
      halt_height: "0",
    });
  }
  if (method === "GET" && path.startsWith("/cosmos/tx/v1beta1/txs/")) {
    const hash = defined(
      path.split("/").pop(),
      "a split has a last part",
    ).toUpperCase();
    const pending = chain.mempool[hash];
    if (pending !== undefined && ++pending.queries >= chain.mempoolQueries) {
      delete chain.mempool[hash];
      broadcast(chain, pending.bytes);
    }
    const tx = chain.included[hash];
    if (tx === undefined) return notFound(`tx not found: ${hash}`);
    return json({
      tx: {},
      tx_response: {
        height: tx.height.toString(),
        txhash: tx.hash,
        codespace: tx.code === 0 ? "" : "sdk",
        code: tx.code,
        raw_log: tx.log,
        gas_wanted: tx.gasWanted,
        gas_used: tx.gasUsed.toString(),
      },
    });
  }
  if (method === "POST" && path === "/cosmos/tx/v1beta1/simulate") {
    const bytes = txBytesOf(body);
    if (bytes === undefined)
      return json({ code: 3, message: "invalid empty tx", details: [] }, 400);
    return simulate(chain, bytes);
  }
  if (method === "POST" && path === "/cosmos/tx/v1beta1/txs") {
    chain.broadcasts++;
    const bytes = txBytesOf(body);
    if (bytes === undefined)
      return json({ code: 3, message: "invalid empty tx", details: [] }, 400);
    const mode = chain.broadcastMode;
    chain.broadcastMode = "answer";
    if (mode === "hold-before") return { status: 200, body: "", hold: true };
    const answer = broadcast(chain, bytes, mode === "hold-in-mempool");
    if (mode === "hold-in-mempool")
      return { status: 200, body: "", hold: true };
    return mode === "hold-after"
      ? { status: 200, body: "", hold: true }
      : answer;
  }
  return undefined;
}

function txBytesOf(body: string): Uint8Array | undefined {
  try {
    const parsed = JSON.parse(body) as { tx_bytes?: unknown };
    return typeof parsed.tx_bytes === "string" && parsed.tx_bytes !== ""
      ? Buffer.from(parsed.tx_bytes, "base64")
      : undefined;
  } catch {
    return undefined;
  }
}

function broadcast(
  chain: CosmosChainState,
  bytes: Uint8Array,
  pending = false,
) {
  const hash = txHash(bytes);
  const refuse = (code: number, log: string) => {
    chain.refusals.push({ code, log });
    return json({
      tx_response: {
        height: "0",
        txhash: hash,
        codespace: "sdk",
        code,
        raw_log: log,
        gas_wanted: "0",
        gas_used: "0",
      },
    });
  };
  if (chain.included[hash] !== undefined || chain.mempool[hash] !== undefined)
    return refuse(19, "tx already exists in cache");
  let verified;
  try {
    verified = verifyTx(bytes, {
      chainId: chain.chainId,
      account: (address) => chain.accounts[address],
    });
  } catch (error) {
    if (error instanceof TxRejection) return refuse(error.code, error.log);
    throw error;
  }
  const required = requiredFee(chain, BigInt(verified.fee.gas));
  const paid = verified.fee.amount.find((c) => c.denom === required?.denom);
  if (
    required !== undefined &&
    (paid === undefined || BigInt(paid.amount) < required.amount)
  ) {
    const got =
      verified.fee.amount.map((c) => c.amount + c.denom).join(",") || "0";
    return refuse(
      13,
      `insufficient fees; got: ${got} required: ${required.amount}${required.denom}: insufficient fee`,
    );
  }
  const taken = () =>
    json({
      tx_response: {
        height: "0",
        txhash: hash,
        codespace: "",
        code: 0,
        raw_log: "",
        gas_wanted: "0",
        gas_used: "0",
      },
    });
  if (pending) {
    chain.mempool[hash] = { bytes, queries: 0 };
    return taken();
  }
  defined(
    chain.accounts[verified.signer],
    "verifyTx found the signer's account",
  ).sequence += 1n;
  chain.height += 1n;
  const failure = chain.failNext;
  chain.failNext = undefined;
  chain.included[hash] = {
    hash,
    height: chain.height,
    code: failure?.code ?? 0,
    log: failure?.log ?? "",
    signer: verified.signer,
    msgs: verified.msgs,
    mode: verified.mode,
    gasWanted: verified.fee.gas,
    // What `simulate` answers, as a real chain's use comes close to it.
    gasUsed: chain.gasUsed,
  };
  return taken();
}

function simulate(chain: CosmosChainState, bytes: Uint8Array) {
  try {
    // Simulation skips the signature, as the chain does, but not the messages
    // or the account.
    verifyTx(bytes, {
      chainId: chain.chainId,
      account: (address) => chain.accounts[address],
      skipSignature: true,
    });
  } catch (error) {
    if (error instanceof TxRejection)
      return json({ code: 2, message: error.log, details: [] }, 400);
    throw error;
  }
  return json({
    gas_info: { gas_wanted: "0", gas_used: chain.gasUsed.toString() },
    result: { data: "", log: "", events: [] },
  });
}

/**
 * The fee the chain's first gas price asks for `gas`; undefined when gas is
 * free.
 */
function requiredFee(
  chain: CosmosChainState,
  gas: bigint,
): { denom: string; amount: bigint } | undefined {
  const price = chain.gasPrices?.[0] ?? parsePrice(chain.minimumGasPrice);
  if (price === undefined || feeFor(price, 1_000_000n) === 0n) return undefined;
  return { denom: price.denom, amount: feeFor(price, gas) };
}

function parsePrice(text: string): GasPrice | undefined {
  const match = /^(\d+(?:\.\d+)?)(.+)$/.exec(text.split(",")[0]?.trim() ?? "");
  return match === null
    ? undefined
    : {
        amount: defined(match[1], "the pattern always captures the amount"),
        denom: defined(match[2], "the pattern always captures the denom"),
      };
}
