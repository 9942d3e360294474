import { z } from "zod";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { describeEndpoint, expectShape, requestJson } from "./http.js";
import { fetchVipStage } from "./l1-rest.js";

/** A stage's window on the base chain's clock: `[start, end)`, unix seconds. */
export interface StageWindow {
  stage: bigint;
  start: bigint;
  end: bigint;
}

const u64 = z.string().regex(/^\d+$/, "must be a u64 as a decimal string");
const tableEntryAnswer = z.object({
  table_entry: z.object({ value: z.string() }),
});
const stageData = z.object({ stage_start_time: u64, stage_end_time: u64 });

/**
 * A stage's window as the program recorded it, never derived from today's
 * interval (a governance parameter): the open stage's from `ModuleStore`,
 * every earlier stage's from its entry in the table `ModuleStore.stage_data`,
 * keyed by `table_key::encode_u64(stage)` (8 bytes, big-endian) and read by
 * the key's BCS bytes.
 */
export async function fetchStageWindow(
  restUrl: string,
  moduleAddress: string,
  stage: bigint,
): Promise<StageWindow> {
  const program = await fetchVipStage(restUrl, moduleAddress);
  if (stage > program.stage)
    throw new VipError(ERRORS.NETWORK.STAGE_NOT_STARTED, {
      stage,
      current: program.stage,
    });
  if (stage === program.stage) {
    if (
      program.stageStartTime === undefined ||
      program.stageEndTime === undefined
    )
      throw new VipError(ERRORS.NETWORK.STAGE_TIMES_MISSING);
    return { stage, start: program.stageStartTime, end: program.stageEndTime };
  }
  if (program.stageDataHandle === undefined)
    throw new VipError(ERRORS.NETWORK.STAGE_DATA_MISSING, { stage });
  const key = new Uint8Array(8);
  new DataView(key.buffer).setBigUint64(0, stage);
  // Loaded here, for past stages only: initia.js takes 0.3 s to load, more
  // than the open stage's whole window costs.
  const { bcs } = await import("@initia/initia.js");
  const keyBytes = bcs.vector(bcs.u8()).serialize(Array.from(key)).toBase64();
  const query = `?key_bytes=${encodeURIComponent(keyBytes)}`;
  const path = `/initia/move/v1/tables/${program.stageDataHandle}/entries/by_key_bytes${query}`;
  const where = `stage ${stage}'s entry in stage_data at ${describeEndpoint(restUrl, path.split("?")[0] ?? path)}`;
  const answer = await requestJson(restUrl, path, {
    method: "GET",
    undefinedFor: [404],
  });
  if (answer === undefined)
    throw new VipError(ERRORS.NETWORK.STAGE_WINDOW_NOT_FOUND, {
      what: where,
      stage,
    });
  const { value } = expectShape(tableEntryAnswer, answer, where).table_entry;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new VipError(ERRORS.NETWORK.NOT_A_JSON_STRING, {
      what: where,
      field: "table_entry.value",
    });
  }
  const data = expectShape(stageData, parsed, `${where} (table_entry.value)`);
  const window = {
    stage,
    start: BigInt(data.stage_start_time),
    end: BigInt(data.stage_end_time),
  };
  if (window.end <= window.start)
    throw new VipError(ERRORS.NETWORK.STAGE_WINDOW_INVERTED, {
      what: where,
      end: window.end,
      start: window.start,
    });
  return window;
}
