import type { NetworkHooks } from "hardhat/types/hooks";

import { reasonOf } from "../errors.js";
import { withRetry } from "../network/retry.js";

/**
 * JSON-RPC methods that only read, so repeating one after a dropped connection,
 * a rate limit or a 5xx cannot change anything. Sends are not here: whether a
 * send reached the node is found out by its nonce (scores/push.ts), never by
 * sending again blindly.
 */
const READ_ONLY = new Set([
  "eth_call",
  "eth_estimateGas",
  "eth_chainId",
  "net_version",
  "eth_blockNumber",
  "eth_getBlockByNumber",
  "eth_getBlockByHash",
  "eth_getCode",
  "eth_getBalance",
  "eth_getTransactionCount",
  "eth_getTransactionByHash",
  "eth_getTransactionReceipt",
  "eth_gasPrice",
  "eth_maxPriorityFeePerGas",
  "eth_feeHistory",
  "eth_accounts",
]);

/**
 * Retries transient failures of read-only requests to the HTTP networks that
 * have a `vip` block (the rollups this plugin operates), for every task, with
 * bounded backoff. Other networks of the project are left as they are.
 */
export default async (): Promise<Partial<NetworkHooks>> => ({
  async onRequest(context, networkConnection, jsonRpcRequest, next) {
    const config = networkConnection.networkConfig;
    if (
      config.type !== "http" ||
      config.vip?.configured !== true ||
      !READ_ONLY.has(jsonRpcRequest.method)
    ) {
      return next(context, networkConnection, jsonRpcRequest);
    }
    return withRetry(
      jsonRpcRequest.method,
      () => next(context, networkConnection, jsonRpcRequest),
      {
        onRetry: (what, error, left) =>
          console.warn(
            `warning: ${what} to network "${networkConnection.networkName}": ` +
              `${reasonOf(error, "with code")}; retrying (${left} left)`,
          ),
      },
    );
  },
});
