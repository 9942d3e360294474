import { json, startServer, type StandInServer } from "./server.js";
import { defined } from "../errors.js";

/**
 * How the stand-in answers: as a healthy node, or with one of the failures a
 * client must report.
 */
type CometBftMode =
  "ok" | "not-json" | "rpc-error" | "missing-field" | "http-error";

export interface CometBftState {
  application: string;
  version: string;
  height: bigint;
  appHash: string;
  /** The Cosmos chain id, `result.node_info.network` of `/status`. */
  network: string;
  mode: CometBftMode;
}

export interface CometBftStandIn extends StandInServer {
  state: CometBftState;
}

/**
 * Stands in for a rollup's CometBFT RPC: `abci_info` and `status`, as POST
 * (JSON-RPC body or none) or GET, in the documented JSON-RPC 2.0 envelope.
 */
export async function startCometBftStandIn(
  initial: Partial<CometBftState> = {},
): Promise<CometBftStandIn> {
  const state: CometBftState = {
    application: "minitia",
    version: "v1.0.2",
    height: 10458738n,
    appHash: "3q2+7w0K0w5nYpQ0D7mXzUu3lP8bUj7m7Wm0cA3Hh2E=",
    network: "rehearsal-1",
    mode: "ok",
    ...initial,
  };
  const server = await startServer((request) => {
    const method = defined(
      (request.url ?? "/").split("?")[0],
      "a split has a first part",
    ).replace(/^\//, "");
    if (state.mode === "http-error")
      return { status: 500, body: "internal error" };
    if (state.mode === "not-json")
      return {
        status: 200,
        body: "<html>gateway</html>",
        contentType: "text/html",
      };
    if (state.mode === "rpc-error")
      return json({
        jsonrpc: "2.0",
        id: -1,
        error: {
          code: -32603,
          message: "Internal error",
          data: "node is syncing",
        },
      });
    if (method === "abci_info") {
      const response: Record<string, string> = {
        data: state.application,
        version: state.version,
        last_block_height: state.height.toString(),
        last_block_app_hash: state.appHash,
      };
      if (state.mode === "missing-field") delete response.version;
      return json({ jsonrpc: "2.0", id: -1, result: { response } });
    }
    if (method === "status") {
      const nodeInfo: Record<string, string> = {
        network: state.network,
        version: "0.38.17",
        moniker: "stand-in",
      };
      if (state.mode === "missing-field") delete nodeInfo.network;
      return json({
        jsonrpc: "2.0",
        id: -1,
        result: {
          node_info: nodeInfo,
          sync_info: { latest_block_height: state.height.toString() },
        },
      });
    }
    return json(
      {
        jsonrpc: "2.0",
        id: -1,
        error: { code: -32601, message: "Method not found" },
      },
      404,
    );
  });
  return { ...server, state };
}
