import { z } from "zod";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { describeEndpoint, expectShape, requestJson } from "./http.js";

/** The rollup's version record, from CometBFT's `abci_info`. */
export interface AbciInfo {
  application: string;
  version: string;
  lastBlockHeight: bigint;
  lastBlockAppHash: string;
}

const jsonRpcError = z.object({
  error: z.object({
    code: z.number(),
    message: z.string(),
    data: z.unknown().optional(),
  }),
});

const abciInfoAnswer = z.object({
  jsonrpc: z.literal("2.0"),
  result: z.object({
    response: z.object({
      data: z.string(),
      version: z.string(),
      last_block_height: z.string().regex(/^\d+$/, "must be a decimal string"),
      last_block_app_hash: z.string(),
    }),
  }),
});

const statusAnswer = z.object({
  jsonrpc: z.literal("2.0"),
  result: z.object({ node_info: z.object({ network: z.string().min(1) }) }),
});

/**
 * `POST {rpc}/abci_info`: the application name, version, height and app hash
 * the rollup reports.
 */
export async function fetchAbciInfo(rpcUrl: string): Promise<AbciInfo> {
  const answer = await callCometBft(rpcUrl, "abci_info");
  const { response } = expectShape(
    abciInfoAnswer,
    answer,
    `abci_info at ${describeEndpoint(rpcUrl, "/abci_info")}`,
  ).result;
  return {
    application: response.data,
    version: response.version,
    lastBlockHeight: BigInt(response.last_block_height),
    lastBlockAppHash: response.last_block_app_hash,
  };
}

/**
 * `POST {rpc}/status`: the rollup's Cosmos chain id
 * (`result.node_info.network`).
 */
export async function fetchCosmosChainId(rpcUrl: string): Promise<string> {
  const answer = await callCometBft(rpcUrl, "status");
  return expectShape(
    statusAnswer,
    answer,
    `status at ${describeEndpoint(rpcUrl, "/status")}`,
  ).result.node_info.network;
}

async function callCometBft(rpcUrl: string, method: string): Promise<unknown> {
  const path = `/${method}`;
  const answer = await requestJson(rpcUrl, path, {
    method: "POST",
    body: { jsonrpc: "2.0", id: -1, method, params: {} },
  });
  const failed = jsonRpcError.safeParse(answer);
  if (failed.success) {
    const { code, message } = failed.data.error;
    throw new VipError(ERRORS.NETWORK.HTTP.JSON_RPC_ERROR, {
      method,
      url: describeEndpoint(rpcUrl, path),
      code,
      reason: message,
    });
  }
  return answer;
}
