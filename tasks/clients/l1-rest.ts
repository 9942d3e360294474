import { z } from "zod";

import { VipError } from "../errors.js";
import { describeEndpoint, expectShape, requestJson } from "./http.js";

/** The VIP program's current stage, from the base chain's `vip::ModuleStore` resource. */
export interface VipStage {
  stage: bigint;
  stageStartTime?: bigint;
  stageEndTime?: bigint;
}

const resourceAnswer = z.object({
  resource: z.object({ move_resource: z.string() }),
});

const u64 = z.string().regex(/^\d+$/, "must be a u64 as a decimal string");
const moduleStore = z.object({
  data: z.object({ stage: u64, stage_start_time: u64.optional(), stage_end_time: u64.optional() }),
});

export function moduleStorePath(moduleAddress: string): string {
  const structTag = `${moduleAddress}::vip::ModuleStore`;
  return `/initia/move/v1/accounts/${moduleAddress}/resources/by_struct_tag?struct_tag=${encodeURIComponent(structTag)}`;
}

/** `GET {rest}/initia/move/v1/accounts/<module>/resources/by_struct_tag?struct_tag=<module>::vip::ModuleStore`. */
export async function fetchVipStage(restUrl: string, moduleAddress: string): Promise<VipStage> {
  const path = moduleStorePath(moduleAddress);
  const where = describeEndpoint(restUrl, path.split("?")[0]!);
  let answer: unknown;
  try {
    answer = await requestJson(restUrl, path, { method: "GET" });
  } catch (error) {
    if (error instanceof VipError && /not found/i.test(error.message) && !error.message.startsWith("cannot reach")) {
      throw new VipError(
        `the VIP module store was not found at ${moduleAddress} on ${describeEndpoint(restUrl, "")}: ` +
          "check VIP_MODULE_ADDRESS (vip.vipModuleAddress) against the base chain you query",
        error,
      );
    }
    throw error;
  }
  const { move_resource } = expectShape(resourceAnswer, answer, `ModuleStore at ${where}`).resource;
  let resource: unknown;
  try {
    resource = JSON.parse(move_resource);
  } catch {
    throw new VipError(`ModuleStore at ${where}: resource.move_resource is not a JSON string`);
  }
  const { data } = expectShape(moduleStore, resource, `ModuleStore at ${where} (resource.move_resource)`);
  return {
    stage: BigInt(data.stage),
    stageStartTime: data.stage_start_time === undefined ? undefined : BigInt(data.stage_start_time),
    stageEndTime: data.stage_end_time === undefined ? undefined : BigInt(data.stage_end_time),
  };
}
