import { answerBankQuery, type Balances } from "./bank.js";
import {
  answerCosmosChain,
  cosmosChainState,
  type CosmosChainState,
} from "./cosmos-chain.js";
import { json, startServer, type StandInServer } from "./server.js";
import { deriveBridgeAddress } from "../proposal/bridge-address.js";

type RollupRestMode = "ok" | "http-error" | "missing-field";

export interface RollupRestState {
  bridgeId: bigint;
  /**
   * The bridge address it reports; by default the one derived from the id, as a
   * real rollup's is.
   */
  bridgeAddress?: string;
  l1ChainId: string;
  mode: RollupRestMode;
  /** Bank balances by init1… address. */
  balances: Balances;
  /**
   * The rollup's accounts and transactions (chain id rehearsal-1 unless given;
   * gas priced by the node's minimum, as a rollup's is).
   */
  chain: CosmosChainState;
}

export interface RollupRestStandIn extends StandInServer {
  state: RollupRestState;
}

/**
 * Stands in for a rollup's Cosmos REST API: the opchild module's bridge info
 * and bank balances, in the chain's shapes.
 */
export async function startRollupRestStandIn(
  initial: Partial<RollupRestState> = {},
): Promise<RollupRestStandIn> {
  const state: RollupRestState = {
    bridgeId: 16n,
    l1ChainId: "interwoven-1",
    mode: "ok",
    balances: {},
    chain: cosmosChainState("rehearsal-1", { minimumGasPrice: "0umin" }),
    ...initial,
  };
  const server = await startServer((request, body) => {
    const url = new URL(request.url ?? "/", "http://stand-in");
    if (state.mode === "http-error")
      return json({ code: 2, message: "internal error", details: [] }, 500);
    const chain = answerCosmosChain(state.chain, request.method, url, body);
    if (chain !== undefined) return chain;
    const bank = answerBankQuery(state.balances, url);
    if (bank !== undefined) return bank;
    if (url.pathname === "/opinit/opchild/v1/bridge_info") {
      const info: Record<string, unknown> = {
        bridge_id: state.bridgeId.toString(),
        bridge_addr: state.bridgeAddress ?? deriveBridgeAddress(state.bridgeId),
        l1_chain_id: state.l1ChainId,
        l1_client_id: "07-tendermint-0",
        bridge_config: {
          challenger: "init1challenger",
          proposer: "init1proposer",
          submission_interval: "3600s",
        },
      };
      if (state.mode === "missing-field") delete info.bridge_id;
      return json({ bridge_info: info });
    }
    return json({ code: 12, message: "Not Implemented", details: [] }, 501);
  });
  return { ...server, state };
}
