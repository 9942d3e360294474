import { MAINNET_VIP_MODULE_ADDRESS } from "../config/constants.js";
import { json, startServer, type StandInServer } from "./server.js";

export type L1RestMode = "ok" | "not-found" | "not-json" | "missing-field" | "bad-move-resource";

export interface L1RestState {
  moduleAddress: string;
  stage: bigint;
  mode: L1RestMode;
}

export interface L1RestStandIn extends StandInServer {
  state: L1RestState;
}

/**
 * Stands in for the base chain's REST API: the VIP module's `ModuleStore` resource by struct tag, with
 * `move_resource` as a JSON string and u64 values as decimal strings, as the chain serves them.
 */
export async function startL1RestStandIn(initial: Partial<L1RestState> = {}): Promise<L1RestStandIn> {
  const state: L1RestState = { moduleAddress: MAINNET_VIP_MODULE_ADDRESS, stage: 15n, mode: "ok", ...initial };
  const server = await startServer((request) => {
    const url = new URL(request.url ?? "/", "http://stand-in");
    const expectedPath = `/initia/move/v1/accounts/${state.moduleAddress}/resources/by_struct_tag`;
    const structTag = `${state.moduleAddress}::vip::ModuleStore`;
    if (state.mode === "not-json") return { status: 200, body: "upstream timeout", contentType: "text/plain" };
    if (state.mode === "not-found" || url.pathname !== expectedPath || url.searchParams.get("struct_tag") !== structTag) {
      return json({ code: 5, message: `resource not found: ${url.searchParams.get("struct_tag") ?? ""}`, details: [] }, 404);
    }
    const data: Record<string, string> = { stage: state.stage.toString(), stage_start_time: "1700000000", stage_end_time: "1700100000" };
    if (state.mode === "missing-field") delete data.stage;
    const moveResource = state.mode === "bad-move-resource" ? "{not json" : JSON.stringify({ type: structTag, data });
    return json({ resource: { address: state.moduleAddress, struct_tag: structTag, move_resource: moveResource, raw_bytes: "AA==" } });
  });
  return { ...server, state };
}
