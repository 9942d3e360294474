import { answerBankQuery, type Balances } from "./bank.js";
import {
  answerCosmosChain,
  cosmosChainState,
  type CosmosChainState,
} from "./cosmos-chain.js";
import { json, startServer, type StandInServer } from "./server.js";
import { MAINNET_VIP_MODULE_ADDRESS } from "../config/constants.js";

type L1RestMode =
  "ok" | "not-found" | "not-json" | "missing-field" | "bad-move-resource";

export interface L1RestState {
  moduleAddress: string;
  /**
   * The program's stage, and its window: `[stageStartTime, stageEndTime)` in
   * Unix seconds. Setting the stage moves the window with it, as the program
   * does (stage n + 1 starts where stage n ends, at `stageInterval`): each
   * stage is served with its own window, the ones passed kept in `stageData`.
   */
  stage: bigint;
  stageStartTime: bigint;
  stageEndTime: bigint;
  stageInterval: bigint;
  /** `ModuleStore.challenge_period`, in seconds. */
  challengePeriod: bigint;
  /**
   * Earlier stages' windows, as the program's `stage_data` table holds them;
   * the stage advancing adds the one that ended. A stage not listed is taken
   * as back to back before the open one at the current interval.
   */
  stageData: Map<bigint, { start: bigint; end: bigint }>;
  /**
   * The base chain's time in Unix seconds (its latest block's time); undefined
   * follows the local clock. Tests move it to pass a stage's end.
   */
  now?: bigint;
  /**
   * Whether the stage advances by itself once its end passes, as the VIP
   * agent's `fund_reward_script` does (stage + 1, start = previous end, end =
   * start + interval); false models an agent that is late.
   */
  followClock: boolean;
  /** Drops every connection without answering: the base chain unreachable. */
  offline: boolean;
  mode: L1RestMode;
  /** Bridges the VIP program already has (`vip::get_bridge_infos`). */
  registeredBridges: bigint[];
  /** Each registered bridge's version (its registration count); 1 if unlisted. */
  bridgeVersions: Map<bigint, bigint>;
  /**
   * Each registered bridge's `vip_l2_score_contract`; `0x…01` if unlisted.
   */
  scoreContracts: Map<bigint, string>;
  /**
   * The snapshots the agent submitted, by stage, then by
   * `${bridgeId}:${version}`: each stage's `StageData.snapshots` table. A
   * missing `upsertTime` is `createTime`; `merkleRoot` is hex (an empty one
   * is served as the chain serves an empty `vector<u8>`, as `[]`).
   */
  snapshots: Map<
    bigint,
    Map<
      string,
      {
        createTime: bigint;
        upsertTime?: bigint;
        totalL2Score?: bigint;
        merkleRoot?: string;
      }
    >
  >;
  /** Gov params' `min_deposit` and `expedited_min_deposit`. */
  minDeposit: { denom: string; amount: string };
  expeditedMinDeposit: { denom: string; amount: string };
  /**
   * Gov params' `voting_period` and `expedited_voting_period`: seconds, served
   * as `"<seconds>s"`; a string is served as it is (a malformed answer).
   */
  votingPeriod: bigint | string;
  expeditedVotingPeriod: bigint | string;
  /**
   * Whether the VIP module answers at `moduleAddress`; and whether the gov
   * params and the view answer.
   */
  vipModule: boolean;
  govParams: boolean;
  view: "ok" | "http-error" | "bad-data";
  /** Bank balances by init1… address. */
  balances: Balances;
  /**
   * The chain's accounts and transactions (chain id interwoven-1 unless given).
   */
  chain: CosmosChainState;
}

export interface L1RestStandIn extends StandInServer {
  state: L1RestState;
}

/**
 * Stands in for the base chain's REST API: the VIP module's `ModuleStore`
 * resource by struct tag, with `move_resource` as a JSON string and u64 values
 * as decimal strings, as the chain serves them.
 */
export async function startL1RestStandIn(
  initial: Partial<L1RestState> = {},
): Promise<L1RestStandIn> {
  const interval = initial.stageInterval ?? 86_400n;
  const start = (initial.now ?? localNow()) - interval / 2n;
  const state: L1RestState = {
    moduleAddress: MAINNET_VIP_MODULE_ADDRESS,
    stage: 15n,
    stageStartTime: start,
    stageEndTime: start + interval,
    stageInterval: interval,
    challengePeriod: 259_200n,
    stageData: new Map(),
    followClock: true,
    offline: false,
    mode: "ok",
    registeredBridges: [1n, 2n],
    bridgeVersions: new Map(),
    scoreContracts: new Map(),
    snapshots: new Map(),
    minDeposit: { denom: "uinit", amount: "100000000" },
    expeditedMinDeposit: { denom: "uinit", amount: "500000000" },
    votingPeriod: 604_800n,
    expeditedVotingPeriod: 86_400n,
    vipModule: true,
    govParams: true,
    view: "ok",
    balances: {},
    chain: cosmosChainState("interwoven-1", {
      gasPrices: [{ denom: "uinit", amount: "0.015" }],
    }),
    ...initial,
  };
  stageMovesItsWindow(state);
  const server = await startServer((request, body) => {
    if (state.offline) return { status: 0, body: "", drop: true };
    const url = new URL(request.url ?? "/", "http://stand-in");
    const now = state.now ?? localNow();
    advanceProgram(state, now);
    if (url.pathname === "/cosmos/base/tendermint/v1beta1/blocks/latest")
      return json(latestBlock(state, now));
    const chain = answerCosmosChain(state.chain, request.method, url, body);
    if (chain !== undefined) return chain;
    const extra = answerOnboardingQuery(state, url, body);
    if (extra !== undefined) return extra;
    const entry = tableEntry(state, url);
    if (entry !== undefined) return entry;
    const expectedPath = `/initia/move/v1/accounts/${state.moduleAddress}/resources/by_struct_tag`;
    const structTag = `${state.moduleAddress}::vip::ModuleStore`;
    if (state.mode === "not-json")
      return {
        status: 200,
        body: "upstream timeout",
        contentType: "text/plain",
      };
    if (
      state.mode === "not-found" ||
      url.pathname !== expectedPath ||
      url.searchParams.get("struct_tag") !== structTag
    ) {
      return json(
        {
          code: 5,
          message: `resource not found: ${url.searchParams.get("struct_tag") ?? ""}`,
          details: [],
        },
        404,
      );
    }
    const data: Record<string, string> = {
      stage: state.stage.toString(),
      stage_start_time: state.stageStartTime.toString(),
      stage_end_time: state.stageEndTime.toString(),
      stage_interval: state.stageInterval.toString(),
      vesting_period: "26",
      minimum_lock_staking_period: "2592000",
      challenge_period: state.challengePeriod.toString(),
    };
    const withTables: Record<string, unknown> = {
      ...data,
      stage_data: {
        handle: STAGE_DATA_HANDLE,
        length: String(state.stage - 1n),
      },
    };
    if (state.mode === "missing-field") delete withTables.stage;
    const moveResource =
      state.mode === "bad-move-resource"
        ? "{not json"
        : JSON.stringify({ type: structTag, data: withTables });
    return json({
      resource: {
        address: state.moduleAddress,
        struct_tag: structTag,
        move_resource: moveResource,
        raw_bytes: "AA==",
      },
    });
  });
  return { ...server, state };
}

/** The handle of the program's `stage_data` table (any 32-byte address). */
const STAGE_DATA_HANDLE =
  "0x8e3d4a1c2b7f60594e1d3c2b1a0f9e8d7c6b5a4938271605f4e3d2c1b0a99881";

/**
 * `GET /initia/move/v1/tables/<handle>/entries/by_key_bytes?key_bytes=<base64>`,
 * for `stage_data` and for each stage's `snapshots`: any other table, or a key
 * not encoded as the chain encodes the table's keys, answers the chain's 404.
 */
function tableEntry(state: L1RestState, url: URL) {
  const match =
    /^\/initia\/move\/v1\/tables\/([^/]+)\/entries\/by_key_bytes$/.exec(
      url.pathname,
    );
  if (match === null) return undefined;
  const handle = match[1] ?? "";
  const keyText = url.searchParams.get("key_bytes") ?? "";
  const key = Buffer.from(keyText, "base64");
  const answer =
    handle === STAGE_DATA_HANDLE
      ? stageDataEntry(state, key)
      : snapshotEntry(state, handle, keyText, key);
  if (answer === undefined)
    return json(
      { code: 5, message: "collections: not found", details: [] },
      404,
    );
  return json({
    table_entry: {
      address: handle,
      key: key.toString("base64"),
      value: JSON.stringify(answer),
      key_bytes: key.toString("base64"),
    },
  });
}

/**
 * `stage_data`'s value for a stage: the key is `table_key::encode_u64(stage)`
 * as BCS bytes (0x08, then 8 bytes big-endian); the value `StageData`, u64 as
 * decimal strings. A stage the table lacks is undefined (the chain's 404).
 */
function stageDataEntry(state: L1RestState, key: Buffer) {
  if (key.length !== 9 || key[0] !== 8) return undefined;
  const stage = key.readBigUInt64BE(1);
  if (stage < 1n || stage >= state.stage) return undefined;
  const window = state.stageData.get(stage) ?? {
    start: state.stageStartTime - (state.stage - stage) * state.stageInterval,
    end:
      state.stageStartTime - (state.stage - stage - 1n) * state.stageInterval,
  };
  return {
    pool_split_ratio: "0.2",
    total_operator_funded_reward: "0",
    total_user_funded_reward: "0",
    vesting_period: "26",
    minimum_lock_staking_period: "2592000",
    minimum_score_ratio: "0.5",
    snapshots: {
      handle: snapshotsHandle(stage),
      length: String(state.snapshots.get(stage)?.size ?? 0),
    },
    stage_start_time: window.start.toString(),
    stage_end_time: window.end.toString(),
  };
}

/**
 * The handle of a stage's `snapshots` table: one per stage, none the
 * `stage_data` handle.
 */
function snapshotsHandle(stage: bigint): string {
  return `0x5a${stage.toString(16).padStart(62, "0")}`;
}

/**
 * A stage's `snapshots` value for `SnapshotKey { bridge_id, version }`: the
 * key's BCS is each field's `vector<u8>` in order, each 0x08 then
 * `table_key::encode_u64` (8 bytes big-endian), 18 bytes in all, in canonical
 * base64. The value `Snapshot`: u64 as decimal strings, `merkle_root` as the
 * chain writes a `vector<u8>` (hex without 0x; `[]` when empty).
 */
function snapshotEntry(
  state: L1RestState,
  handle: string,
  keyText: string,
  key: Buffer,
) {
  const match = /^0x5a([0-9a-f]{62})$/.exec(handle);
  if (match === null) return undefined;
  if (
    key.length !== 18 ||
    key[0] !== 8 ||
    key[9] !== 8 ||
    key.toString("base64") !== keyText
  )
    return undefined;
  const stage = BigInt(`0x${match[1] ?? ""}`);
  const bridgeId = key.readBigUInt64BE(1);
  const version = key.readBigUInt64BE(10);
  const snapshot = state.snapshots.get(stage)?.get(`${bridgeId}:${version}`);
  if (snapshot === undefined) return undefined;
  const root = (snapshot.merkleRoot ?? "ab".repeat(32)).replace(/^0x/, "");
  return {
    create_time: snapshot.createTime.toString(),
    upsert_time: (snapshot.upsertTime ?? snapshot.createTime).toString(),
    merkle_root: root === "" ? [] : root.toLowerCase(),
    total_l2_score: (snapshot.totalL2Score ?? 0n).toString(),
  };
}

function localNow(): bigint {
  return BigInt(Math.floor(Date.now() / 1000));
}

/**
 * `fund_reward_script`'s schedule: windows stay back to back however late the
 * stage advances (each step moves the window, `stageMovesItsWindow`).
 */
function advanceProgram(state: L1RestState, now: bigint): void {
  while (
    state.followClock &&
    now >= state.stageEndTime &&
    state.stageInterval > 0n
  )
    state.stage += 1n;
}

/**
 * Makes `state.stage` an accessor that moves the window with the stage, so a
 * test or the rehearsal that sets the stage gets that stage's own window, not
 * the one of the stage it left: forward, the stages passed are kept in
 * `stageData` (as the program's table holds them); back, each stage gets
 * the window the table kept for it again, and leaves the table.
 */
function stageMovesItsWindow(state: L1RestState): void {
  let stage = state.stage;
  Object.defineProperty(state, "stage", {
    enumerable: true,
    get: () => stage,
    set: (next: bigint) => {
      for (; stage < next; stage += 1n) {
        state.stageData.set(stage, {
          start: state.stageStartTime,
          end: state.stageEndTime,
        });
        state.stageStartTime = state.stageEndTime;
        state.stageEndTime += state.stageInterval;
      }
      for (; stage > next; stage -= 1n) {
        const earlier = state.stageData.get(stage - 1n) ?? {
          start: state.stageStartTime - state.stageInterval,
          end: state.stageStartTime,
        };
        state.stageData.delete(stage - 1n);
        state.stageStartTime = earlier.start;
        state.stageEndTime = earlier.end;
      }
    },
  });
}

/**
 * `GET /cosmos/base/tendermint/v1beta1/blocks/latest` as a node answers it: the
 * time in RFC 3339 with nanoseconds.
 */
function latestBlock(state: L1RestState, now: bigint) {
  const time = new Date(Number(now) * 1000)
    .toISOString()
    .replace(/\.(\d{3})Z$/, ".$1456789Z");
  const height = (now - 1_600_000_000n).toString();
  const header = {
    chain_id: state.chain.chainId,
    height,
    time,
    proposer_address: "3d0Zs3eSnXV7ePWIDuaDQhVfTGg=",
  };
  return {
    block_id: {
      hash: "5wUBzm4qHELq9xCmUoRXFL3uXD5D1ZUFG5Ve9qqAC7Y=",
      part_set_header: {
        total: 1,
        hash: "Mjp8LbLmE56ZE1vRcw0bnD9Rp0qv4HkFRQ64cHEXIx4=",
      },
    },
    block: {
      header,
      data: { txs: [] },
      evidence: { evidence: [] },
      last_commit: null,
    },
    sdk_block: {
      header,
      data: { txs: [] },
      evidence: { evidence: [] },
      last_commit: null,
    },
  };
}

/**
 * What onboarding asks the base chain (accounts, proposal:whitelist): bank
 * balances, the VIP module's ABI, `vip::get_bridge_infos` through the JSON view
 * endpoint (its `data` a JSON string, u64 values as decimal strings), and the
 * gov params. Undefined for any other path.
 */
function answerOnboardingQuery(state: L1RestState, url: URL, body: string) {
  const bank = answerBankQuery(state.balances, url);
  if (bank !== undefined) return bank;
  if (
    url.pathname ===
    `/initia/move/v1/accounts/${state.moduleAddress}/modules/vip`
  ) {
    if (!state.vipModule)
      return json({ code: 5, message: "module not found", details: [] }, 404);
    return json({
      module: {
        address: state.moduleAddress,
        module_name: "vip",
        abi: "{}",
        raw_bytes: "AA==",
        upgrade_policy: "COMPATIBLE",
      },
    });
  }
  if (
    url.pathname.startsWith("/initia/move/v1/accounts/") &&
    url.pathname.endsWith("/modules/vip")
  ) {
    return json({ code: 5, message: "module not found", details: [] }, 404);
  }
  if (url.pathname === "/initia/move/v1/view/json") {
    const request = JSON.parse(body || "{}") as {
      address?: string;
      module_name?: string;
      function_name?: string;
    };
    if (state.view === "http-error")
      return json({ code: 2, message: "internal error", details: [] }, 500);
    if (
      request.address !== state.moduleAddress ||
      request.module_name !== "vip" ||
      request.function_name !== "get_bridge_infos"
    ) {
      return json({ code: 5, message: "function not found", details: [] }, 404);
    }
    const infos = state.registeredBridges.map((id) => ({
      init_stage: "1",
      bridge_id: id.toString(),
      version: (state.bridgeVersions.get(id) ?? 1n).toString(),
      bridge_addr: "0x" + id.toString(16).padStart(64, "0"),
      vip_l2_score_contract:
        state.scoreContracts.get(id) ??
        "0x0000000000000000000000000000000000000001",
      vip_weight: "0.5",
      vm_type: "2",
    }));
    return json({
      data: state.view === "bad-data" ? "[{" : JSON.stringify(infos),
      events: [],
      gas_used: "1234",
    });
  }
  if (url.pathname === "/initia/gov/v1/params") {
    if (!state.govParams)
      return json({ code: 12, message: "Not Implemented", details: [] }, 501);
    return json({
      params: {
        min_deposit: [state.minDeposit],
        voting_period: duration(state.votingPeriod),
        quorum: "0.334",
        expedited_voting_period: duration(state.expeditedVotingPeriod),
        expedited_min_deposit: [state.expeditedMinDeposit],
      },
    });
  }
  return undefined;
}

/** A protobuf duration as JSON writes it: `"604800s"`. */
function duration(value: bigint | string): string {
  return typeof value === "string" ? value : `${value}s`;
}
