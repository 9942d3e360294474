import { assertHardhatInvariant } from "@nomicfoundation/hardhat-errors";
import { z } from "zod";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { describeEndpoint, expectShape, requestJson } from "./http.js";
import { fetchVipStage, type VipStage } from "./l1-rest.js";

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
 * every earlier stage's from its entry in the table `ModuleStore.stage_data`.
 */
export async function fetchStageWindow(
  restUrl: string,
  moduleAddress: string,
  stage: bigint,
): Promise<StageWindow> {
  const program = await fetchVipStage(restUrl, moduleAddress);
  if (stage > program.stage)
    throw new VipError(ERRORS.NETWORK.PROGRAM.STAGE_NOT_STARTED, {
      stage,
      current: program.stage,
    });
  if (stage === program.stage) {
    if (
      program.stageStartTime === undefined ||
      program.stageEndTime === undefined
    )
      throw new VipError(ERRORS.NETWORK.PROGRAM.STAGE_TIMES_MISSING);
    return { stage, start: program.stageStartTime, end: program.stageEndTime };
  }
  const entry = await readStageData(restUrl, program, stage);
  const data = expectShape(
    stageData,
    entry.value,
    `${entry.where} (table_entry.value)`,
  );
  const window = {
    stage,
    start: BigInt(data.stage_start_time),
    end: BigInt(data.stage_end_time),
  };
  if (window.end <= window.start)
    throw new VipError(ERRORS.NETWORK.PROGRAM.STAGE_WINDOW_INVERTED, {
      what: entry.where,
      end: window.end,
      start: window.start,
    });
  return window;
}

/** A table entry's value (its JSON text, parsed), and how messages name it. */
export interface TableEntry {
  value: unknown;
  where: string;
}

/**
 * A stage's `StageData`: its entry in the table `ModuleStore.stage_data`, keyed
 * by `table_key::encode_u64(stage)`. A stage the table lacks is an error
 * (STAGE_WINDOW_NOT_FOUND), as is a module store without the table.
 */
export async function readStageData(
  restUrl: string,
  program: VipStage,
  stage: bigint,
): Promise<TableEntry> {
  if (program.stageDataHandle === undefined)
    throw new VipError(ERRORS.NETWORK.PROGRAM.STAGE_DATA_MISSING, { stage });
  // Loaded here, for past stages only: initia.js takes 0.3 s to load, more
  // than the open stage's whole window costs.
  const { bcs } = await import("@initia/initia.js");
  const key = bcs.byteVector().serialize(encodeU64Key(stage)).toBytes();
  const where = `stage ${stage}'s entry in stage_data`;
  const entry = await readTableEntry(
    restUrl,
    program.stageDataHandle,
    key,
    where,
  );
  if (entry.value === undefined)
    throw new VipError(ERRORS.NETWORK.PROGRAM.STAGE_WINDOW_NOT_FOUND, {
      what: entry.where,
      stage,
    });
  return entry;
}

/**
 * `table_key::encode_u64(value)`: the u64's 8 bytes, big-endian, so that the
 * table's keys sort as the numbers do.
 */
export function encodeU64Key(value: bigint): Uint8Array {
  assertHardhatInvariant(
    value >= 0n && value < 1n << 64n,
    `a table key is a u64, not ${value}`,
  );
  const key = new Uint8Array(8);
  new DataView(key.buffer).setBigUint64(0, value);
  return key;
}

/**
 * One entry of a Move table, read by its key's BCS bytes: `GET
 * {rest}/initia/move/v1/tables/<handle>/entries/by_key_bytes?key_bytes=<base64>`.
 * The entry's `table_entry.value` is JSON text (u64 values as decimal
 * strings, `vector<u8>` as hex): it comes back parsed, `value` undefined when
 * the table has no such key (the node answers 404). `what` names the entry in
 * messages, followed by the endpoint.
 */
export async function readTableEntry(
  restUrl: string,
  handle: string,
  keyBcs: Uint8Array,
  what: string,
): Promise<TableEntry> {
  const tablePath = `/initia/move/v1/tables/${handle}/entries/by_key_bytes`;
  const keyBytes = Buffer.from(keyBcs).toString("base64");
  const path = `${tablePath}?key_bytes=${encodeURIComponent(keyBytes)}`;
  const where = `${what} at ${describeEndpoint(restUrl, tablePath)}`;
  const answer = await requestJson(restUrl, path, {
    method: "GET",
    undefinedFor: [404],
  });
  if (answer === undefined) return { value: undefined, where };
  const { value } = expectShape(tableEntryAnswer, answer, where).table_entry;
  try {
    return { value: JSON.parse(value) as unknown, where };
  } catch {
    throw new VipError(ERRORS.NETWORK.HTTP.NOT_A_JSON_STRING, {
      what: where,
      field: "table_entry.value",
    });
  }
}
