import { z } from "zod";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { expectShape } from "./http.js";
import { fetchVipStage } from "./l1-rest.js";
import { encodeU64Key, readStageData, readTableEntry } from "./stage-window.js";

/**
 * A bridge's snapshot of one stage, as the VIP agent submitted it
 * (`vip::Snapshot`): times in Unix seconds on the base chain's clock.
 */
export interface VipSnapshot {
  createTime: bigint;
  upsertTime: bigint;
  totalL2Score: bigint;
  /** `0x` and lowercase hex (`0x` alone for an empty root). */
  merkleRoot: string;
}

const u64 = z.string().regex(/^\d+$/, "must be a u64 as a decimal string");
const stageSnapshots = z.object({
  snapshots: z.object({ handle: z.string() }),
});
/**
 * The chain writes a non-empty `vector<u8>` as hex without `0x`, and an empty
 * one as an empty array.
 */
const bytes = z.union([
  z.string().regex(/^(0x)?([0-9a-fA-F]{2})*$/, "must be bytes as hex"),
  z.array(z.unknown()).length(0, "must be bytes as hex"),
]);
const snapshot = z.object({
  create_time: u64,
  upsert_time: u64,
  merkle_root: bytes,
  total_l2_score: u64,
});

/**
 * A stage's snapshot for one bridge and version, read from the stage's
 * `StageData.snapshots` table (keyed by `SnapshotKey { bridge_id, version }`,
 * each `table_key::encode_u64`); undefined when there is none: the agent has
 * not submitted it, it was challenged away, or the stage is the open one (the
 * chain takes snapshots of ended stages only). A stage that has not started,
 * or an earlier one the program has no entry for, is an error.
 */
export async function fetchSnapshot(
  restUrl: string,
  moduleAddress: string,
  stage: bigint,
  bridgeId: bigint,
  version: bigint,
): Promise<VipSnapshot | undefined> {
  const program = await fetchVipStage(restUrl, moduleAddress);
  if (stage > program.stage)
    throw new VipError(ERRORS.NETWORK.PROGRAM.STAGE_NOT_STARTED, {
      stage,
      current: program.stage,
    });
  if (stage === program.stage) return undefined;
  const stageEntry = await readStageData(restUrl, program, stage);
  const { handle } = expectShape(
    stageSnapshots,
    stageEntry.value,
    `${stageEntry.where} (table_entry.value)`,
  ).snapshots;
  const { bcs } = await import("@initia/initia.js");
  const key = bcs
    .struct("SnapshotKey", {
      bridge_id: bcs.byteVector(),
      version: bcs.byteVector(),
    })
    .serialize({
      bridge_id: encodeU64Key(bridgeId),
      version: encodeU64Key(version),
    })
    .toBytes();
  const entry = await readTableEntry(
    restUrl,
    handle,
    key,
    `the snapshot of bridge ${bridgeId} (version ${version}) for stage ${stage}`,
  );
  if (entry.value === undefined) return undefined;
  const data = expectShape(
    snapshot,
    entry.value,
    `${entry.where} (table_entry.value)`,
  );
  return {
    createTime: BigInt(data.create_time),
    upsertTime: BigInt(data.upsert_time),
    totalL2Score: BigInt(data.total_l2_score),
    merkleRoot:
      typeof data.merkle_root === "string"
        ? `0x${data.merkle_root.replace(/^0x/, "").toLowerCase()}`
        : "0x",
  };
}
