import { createHash } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import type { Policy } from "../../tasks/policy/parse.js";
import type { ScoreRow } from "../../tasks/scoring/compute.js";
import type { SourceDigest } from "../../tasks/scoring/digest.js";
import {
  type StageManifest,
  scoreCsv,
  stageManifest,
  writeStageFiles,
} from "../../tasks/scoring/publish.js";
import { packRows } from "../../tasks/scoring/score-rows.js";

/** A folder of its own under the system's temporary folder. */
export function tempDir(prefix = "vip-report-"): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}

const SAMPLE_SQL = [
  "-- @policy perp-volume",
  "-- @from-stage 1",
  "-- @source trades 0x5FbDB2315678afecb367f032d93F642f64180aa3 " +
    "event Trade(address indexed trader, uint256 notional)",
  "select trader as address, sum(notional) as score",
  "from trades, stage",
  "where block_time >= stage.start_time and block_time < stage.end_time",
  "group by trader",
  "",
].join("\n");

/**
 * Writes a policy file into `dir` and returns it as the scorer holds it (the
 * manifest takes its name, file, first stage and sha256). The name is taken
 * as given, so a test can give a hostile one.
 */
export async function writePolicy(
  dir: string,
  sql = SAMPLE_SQL,
  name = "perp-volume",
  file = "perp-volume.sql",
): Promise<Policy> {
  const full = path.join(dir, file);
  await writeFile(full, sql);
  return {
    file: full,
    name,
    fromStage: 1n,
    sources: [],
    sql,
    sha256: createHash("sha256").update(sql).digest("hex"),
  };
}

/** The digest of the sample policy's one source, as a manifest lists it. */
export const SOURCE_DIGEST = (stage: bigint): SourceDigest => ({
  table: "trades",
  address: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  event: "Trade(address indexed trader, uint256 notional)",
  logs: 1234 * Number(stage),
  sha256: createHash("sha256").update(`logs of stage ${stage}`).digest("hex"),
});

/** The stage's window: a day each, from 2026-01-01 UTC. */
function windowOf(stage: bigint): {
  stage: bigint;
  start: bigint;
  end: bigint;
} {
  const start = 1_767_225_600n + (stage - 1n) * 86_400n;
  return { stage, start, end: start + 86_400n };
}

/**
 * Writes a stage's CSV and manifest with the project's own writers
 * (`scoreCsv`, `stageManifest`, `writeStageFiles`), as scores:compute does.
 */
export async function writeStage(
  dir: string,
  policy: Policy,
  stage: bigint,
  scores: Record<string, bigint>,
  final = true,
): Promise<StageManifest> {
  const rows: ScoreRow[] = Object.entries(scores)
    .map(([address, score]) => ({ address: address.toLowerCase(), score }))
    .sort((a, b) => (a.address < b.address ? -1 : 1));
  const packed = packRows(rows);
  const csv = scoreCsv(packed);
  const window = windowOf(stage);
  const hash = `0x${"ab".repeat(32)}`;
  const manifest = stageManifest(
    policy,
    {
      window,
      blocks: {
        first: { number: stage * 100n, hash, time: window.start },
        last: { number: stage * 100n + 99n, hash, time: window.end - 1n },
        firstNumber: stage * 100n,
        closed: final,
      },
      final,
      trial: false,
    },
    { rows: packed, sources: [SOURCE_DIGEST(stage)], engine: "test" },
    csv,
  );
  await writeStageFiles(dir, manifest, csv);
  return manifest;
}

/** A test's address number `n`: lowercase, the same in every run. */
export function address(n: number): string {
  return `0x${createHash("sha256").update(`address ${n}`).digest("hex").slice(0, 40)}`;
}

/** A score above 2^53: a JavaScript Number would round it. */
export const BIG_SCORE = 2n ** 60n + 123_456_789n;
