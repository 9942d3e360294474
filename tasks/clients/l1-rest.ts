import { z } from "zod";

import { ERRORS } from "../error-catalog.js";
import { VipError, defined, isVipError } from "../errors.js";
import { describeEndpoint, expectShape, requestJson } from "./http.js";

/**
 * The VIP program's current stage, from the base chain's `vip::ModuleStore`
 * resource.
 */
export interface VipStage {
  stage: bigint;
  stageStartTime?: bigint;
  stageEndTime?: bigint;
  stageInterval?: bigint;
  /** The handle of `stage_data`, the table of every earlier stage's window. */
  stageDataHandle?: string;
  /**
   * Seconds after a snapshot's creation during which it can be challenged
   * (`challenge_period`); older module stores may lack it.
   */
  challengePeriod?: bigint;
}

const resourceAnswer = z.object({
  resource: z.object({ move_resource: z.string() }),
});

const u64 = z.string().regex(/^\d+$/, "must be a u64 as a decimal string");
const moduleStore = z.object({
  data: z.object({
    stage: u64,
    stage_start_time: u64.optional(),
    stage_end_time: u64.optional(),
    stage_interval: u64.optional(),
    challenge_period: u64.optional(),
    stage_data: z.object({ handle: z.string() }).optional(),
  }),
});

/**
 * Whether the node answered that there is no such thing: a 404, or another
 * status whose reason says "not found" (some gateways answer 500).
 */
function answeredNotFound(
  error: unknown,
): error is VipError<typeof ERRORS.NETWORK.HTTP.HTTP_STATUS> {
  return (
    isVipError(error, ERRORS.NETWORK.HTTP.HTTP_STATUS) &&
    (error.params.status === 404 ||
      /not found/i.test(String(error.params.reason)))
  );
}

/** The module store's path without its query, as messages name it. */
function moduleStoreWhere(restUrl: string, moduleAddress: string): string {
  return describeEndpoint(
    restUrl,
    defined(
      moduleStorePath(moduleAddress).split("?")[0],
      "split always yields a first part",
    ),
  );
}

function moduleStorePath(moduleAddress: string): string {
  const structTag = `${moduleAddress}::vip::ModuleStore`;
  const query = `?struct_tag=${encodeURIComponent(structTag)}`;
  return `/initia/move/v1/accounts/${moduleAddress}/resources/by_struct_tag${query}`;
}

/**
 * `GET
 * {rest}/initia/move/v1/accounts/<module>/resources/by_struct_tag?struct_tag=<module>::vip::ModuleStore`.
 */
export async function fetchVipStage(
  restUrl: string,
  moduleAddress: string,
): Promise<VipStage> {
  const path = moduleStorePath(moduleAddress);
  const where = moduleStoreWhere(restUrl, moduleAddress);
  let answer: unknown;
  try {
    answer = await requestJson(restUrl, path, { method: "GET" });
  } catch (error) {
    if (answeredNotFound(error)) {
      throw new VipError(
        ERRORS.NETWORK.PROGRAM.VIP_MODULE_STORE_NOT_FOUND,
        { address: moduleAddress, node: describeEndpoint(restUrl, "") },
        error,
      );
    }
    throw error;
  }
  const { move_resource } = expectShape(
    resourceAnswer,
    answer,
    `ModuleStore at ${where}`,
  ).resource;
  let resource: unknown;
  try {
    resource = JSON.parse(move_resource);
  } catch {
    throw new VipError(ERRORS.NETWORK.HTTP.NOT_A_JSON_STRING, {
      what: `ModuleStore at ${where}`,
      field: "resource.move_resource",
    });
  }
  const { data } = expectShape(
    moduleStore,
    resource,
    `ModuleStore at ${where} (resource.move_resource)`,
  );
  return {
    stage: BigInt(data.stage),
    stageStartTime:
      data.stage_start_time === undefined
        ? undefined
        : BigInt(data.stage_start_time),
    stageEndTime:
      data.stage_end_time === undefined
        ? undefined
        : BigInt(data.stage_end_time),
    stageInterval:
      data.stage_interval === undefined
        ? undefined
        : BigInt(data.stage_interval),
    stageDataHandle: data.stage_data?.handle,
    challengePeriod:
      data.challenge_period === undefined
        ? undefined
        : BigInt(data.challenge_period),
  };
}

/**
 * The program's clock as `vip::ModuleStore` keeps it: every field the stage
 * schedule needs.
 */
export interface VipProgram {
  stage: bigint;
  stageStartTime: bigint;
  stageEndTime: bigint;
  stageInterval: bigint;
}

/**
 * Like `fetchVipStage`, but every time field is required: a schedule cannot be
 * kept without them.
 */
export async function fetchVipProgram(
  restUrl: string,
  moduleAddress: string,
): Promise<VipProgram> {
  const program = await fetchVipStage(restUrl, moduleAddress);
  const { stageStartTime, stageEndTime, stageInterval } = program;
  if (
    stageStartTime === undefined ||
    stageEndTime === undefined ||
    stageInterval === undefined
  ) {
    const missing = [
      ["stage_start_time", stageStartTime],
      ["stage_end_time", stageEndTime],
      ["stage_interval", stageInterval],
    ]
      .filter(([, value]) => value === undefined)
      .map(([name]) => name);
    throw new VipError(ERRORS.NETWORK.PROGRAM.VIP_PROGRAM_INCOMPLETE, {
      url: moduleStoreWhere(restUrl, moduleAddress),
      fields: missing.join(", data."),
    });
  }
  return { stage: program.stage, stageStartTime, stageEndTime, stageInterval };
}

const latestBlockAnswer = z.object({
  block: z.object({
    header: z.object({ time: z.string(), height: z.string().optional() }),
  }),
});

/**
 * The base chain's time: its latest block's time (`GET
 * /cosmos/base/tendermint/v1beta1/blocks/latest` → `block.header.time`, RFC
 * 3339 with up to nanoseconds), in Unix seconds. The program's stages end by
 * this clock, never by the local one.
 */
export async function fetchChainTime(restUrl: string): Promise<bigint> {
  const path = "/cosmos/base/tendermint/v1beta1/blocks/latest";
  const where = `the latest block at ${describeEndpoint(restUrl, path)}`;
  const { block } = expectShape(
    latestBlockAnswer,
    await requestJson(restUrl, path, { method: "GET" }),
    where,
  );
  const seconds = rfc3339Seconds(block.header.time);
  if (seconds === undefined)
    throw new VipError(ERRORS.NETWORK.PROGRAM.CHAIN_TIME_INVALID, {
      what: where,
      time: JSON.stringify(block.header.time),
    });
  return seconds;
}

/**
 * Whole Unix seconds of an RFC 3339 time; the fraction (CometBFT writes
 * nanoseconds) is cut, not rounded.
 */
function rfc3339Seconds(text: string): bigint | undefined {
  const match =
    /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.\d+)?(Z|[+-]\d\d:\d\d)$/i.exec(
      text.trim(),
    );
  if (match === null) return undefined;
  const ms = Date.parse(
    `${match[1]}${defined(match[2], "the pattern always captures the zone").toUpperCase()}`,
  );
  return Number.isNaN(ms) ? undefined : BigInt(Math.floor(ms / 1000));
}

const viewAnswer = z.object({ data: z.string() });
const bridgeInfos = z.array(
  z
    .object({
      bridge_id: u64,
      version: u64,
      vip_l2_score_contract: z.string(),
      init_stage: u64.optional(),
    })
    .passthrough(),
);

/** A bridge the VIP program has, as `vip::get_bridge_infos` lists it. */
export interface BridgeInfo {
  bridgeId: bigint;
  /** The bridge's current version: its registration count. */
  version: bigint;
  /** `vip_l2_score_contract`: the rollup's score contract, as registered. */
  scoreContract: string;
  /** The first stage the bridge is scored in. */
  initStage?: bigint;
}

/**
 * The bridges the VIP program has (`vip::get_bridge_infos`, a view function,
 * through `POST /initia/move/v1/view/json`): its `data` is the JSON text of
 * an array, u64 values as decimal strings.
 */
export async function fetchBridgeInfos(
  restUrl: string,
  moduleAddress: string,
): Promise<BridgeInfo[]> {
  const path = "/initia/move/v1/view/json";
  const where = `vip::get_bridge_infos at ${describeEndpoint(restUrl, path)}`;
  const answer = await requestJson(restUrl, path, {
    method: "POST",
    body: {
      address: moduleAddress,
      module_name: "vip",
      function_name: "get_bridge_infos",
      type_args: [],
      args: [],
    },
  });
  const { data } = expectShape(viewAnswer, answer, where);
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new VipError(ERRORS.NETWORK.HTTP.NOT_A_JSON_STRING, {
      what: where,
      field: "data",
    });
  }
  return expectShape(bridgeInfos, parsed, `${where} (data)`).map((info) => ({
    bridgeId: BigInt(info.bridge_id),
    version: BigInt(info.version),
    scoreContract: info.vip_l2_score_contract,
    initStage:
      info.init_stage === undefined ? undefined : BigInt(info.init_stage),
  }));
}

/**
 * The bridges the VIP program already has (`vip::get_bridge_infos`): a
 * proposal for one of them would be refused by the chain, after the vote.
 */
export async function fetchRegisteredBridgeIds(
  restUrl: string,
  moduleAddress: string,
): Promise<bigint[]> {
  return (await fetchBridgeInfos(restUrl, moduleAddress)).map(
    (info) => info.bridgeId,
  );
}

const moduleAnswer = z.object({
  module: z.object({ module_name: z.literal("vip") }),
});

/**
 * Checks that the VIP module answers at `moduleAddress` (`GET
 * …/accounts/<address>/modules/vip`).
 */
export async function checkVipModule(
  restUrl: string,
  moduleAddress: string,
): Promise<void> {
  const path = `/initia/move/v1/accounts/${moduleAddress}/modules/vip`;
  try {
    expectShape(
      moduleAnswer,
      await requestJson(restUrl, path, { method: "GET" }),
      `the VIP module at ${describeEndpoint(restUrl, path)}`,
    );
  } catch (error) {
    if (answeredNotFound(error)) {
      throw new VipError(
        ERRORS.NETWORK.PROGRAM.NO_VIP_MODULE,
        { address: moduleAddress, node: describeEndpoint(restUrl, "") },
        error,
      );
    }
    throw error;
  }
}

const coin = z.object({ denom: z.string().min(1), amount: u64 });
const govParamsAnswer = z.object({
  params: z.object({
    min_deposit: z.array(coin).min(1),
    voting_period: z.string(),
    expedited_voting_period: z.string().nullish(),
    expedited_min_deposit: z.array(coin).nullish(),
  }),
});

/** What a proposal needs from the base chain's gov params. */
export interface GovParams {
  /** `min_deposit` as coins text (`100000000uinit`, comma-separated). */
  minDeposit: string;
  votingPeriodSeconds: bigint;
  expeditedVotingPeriodSeconds?: bigint;
  expeditedMinDeposit?: string;
}

/**
 * The base chain's gov params (`GET /initia/gov/v1/params`): the deposits as
 * coins text, the voting periods in whole seconds (Cosmos SDK writes durations
 * as `"604800s"`; a fraction of a second rounds up).
 */
export async function fetchGovParams(restUrl: string): Promise<GovParams> {
  const path = "/initia/gov/v1/params";
  const where = `gov params at ${describeEndpoint(restUrl, path)}`;
  const { params } = expectShape(
    govParamsAnswer,
    await requestJson(restUrl, path, { method: "GET" }),
    where,
  );
  const expedited = params.expedited_voting_period ?? undefined;
  const expeditedDeposit = params.expedited_min_deposit ?? [];
  return {
    minDeposit: coinsText(params.min_deposit),
    votingPeriodSeconds: durationSeconds(
      params.voting_period,
      "params.voting_period",
      where,
    ),
    expeditedVotingPeriodSeconds:
      expedited === undefined
        ? undefined
        : durationSeconds(expedited, "params.expedited_voting_period", where),
    expeditedMinDeposit:
      expeditedDeposit.length === 0 ? undefined : coinsText(expeditedDeposit),
  };
}

/**
 * The deposit a proposal needs to enter its voting period (`min_deposit` of
 * the gov params), as coins text.
 */
export async function fetchMinDeposit(restUrl: string): Promise<string> {
  return (await fetchGovParams(restUrl)).minDeposit;
}

function coinsText(coins: { denom: string; amount: string }[]): string {
  return coins.map((c) => `${c.amount}${c.denom}`).join(",");
}

/**
 * Whole seconds of a protobuf duration as JSON writes it (`"604800s"`,
 * `"1.5s"`): a fraction rounds up, so a period is never taken as shorter than
 * it is. Anything else is refused, naming the field.
 */
function durationSeconds(text: string, field: string, what: string): bigint {
  const match = /^(\d+)(?:\.(\d+))?s$/.exec(text);
  if (match === null)
    throw new VipError(ERRORS.NETWORK.GOVERNANCE.GOV_DURATION_INVALID, {
      what,
      field,
      value: JSON.stringify(text),
    });
  const whole = BigInt(defined(match[1], "the pattern always captures digits"));
  return /[1-9]/.test(match[2] ?? "") ? whole + 1n : whole;
}
