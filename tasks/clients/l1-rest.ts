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
    stage_data: z.object({ handle: z.string() }).optional(),
  }),
});

/**
 * Whether the node answered that there is no such thing: a 404, or another
 * status whose reason says "not found" (some gateways answer 500).
 */
function answeredNotFound(
  error: unknown,
): error is VipError<typeof ERRORS.NETWORK.HTTP_STATUS> {
  return (
    isVipError(error, ERRORS.NETWORK.HTTP_STATUS) &&
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
        ERRORS.NETWORK.VIP_MODULE_STORE_NOT_FOUND,
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
    throw new VipError(ERRORS.NETWORK.NOT_A_JSON_STRING, {
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
    throw new VipError(ERRORS.NETWORK.VIP_PROGRAM_INCOMPLETE, {
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
    throw new VipError(ERRORS.NETWORK.CHAIN_TIME_INVALID, {
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
const bridgeInfos = z.array(z.object({ bridge_id: u64 }).passthrough());

/**
 * The bridges the VIP program already has (`vip::get_bridge_infos`, a view
 * function): a proposal for one of them would be refused by the chain, after
 * the vote.
 */
export async function fetchRegisteredBridgeIds(
  restUrl: string,
  moduleAddress: string,
): Promise<bigint[]> {
  const path = "/initia/move/v1/view/json";
  const where = describeEndpoint(restUrl, path);
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
  const { data } = expectShape(
    viewAnswer,
    answer,
    `vip::get_bridge_infos at ${where}`,
  );
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new VipError(ERRORS.NETWORK.NOT_A_JSON_STRING, {
      what: `vip::get_bridge_infos at ${where}`,
      field: "data",
    });
  }
  return expectShape(
    bridgeInfos,
    parsed,
    `vip::get_bridge_infos at ${where} (data)`,
  ).map((info) => BigInt(info.bridge_id));
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
        ERRORS.NETWORK.NO_VIP_MODULE,
        { address: moduleAddress, node: describeEndpoint(restUrl, "") },
        error,
      );
    }
    throw error;
  }
}

const coin = z.object({ denom: z.string().min(1), amount: u64 });
const govParamsAnswer = z.object({
  params: z.object({ min_deposit: z.array(coin).min(1) }),
});

/**
 * The deposit a proposal needs to enter its voting period (`GET
 * /initia/gov/v1/params` → `min_deposit`), as coins text.
 */
export async function fetchMinDeposit(restUrl: string): Promise<string> {
  const path = "/initia/gov/v1/params";
  const { params } = expectShape(
    govParamsAnswer,
    await requestJson(restUrl, path, { method: "GET" }),
    `gov params at ${describeEndpoint(restUrl, path)}`,
  );
  return params.min_deposit.map((c) => `${c.amount}${c.denom}`).join(",");
}
