import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";

import type { StageComputation } from "./compute.js";
import {
  ADDRESS_BYTES,
  bytesOf,
  type PackedRows,
  packedTotal,
} from "./score-rows.js";
import type { StageBlocks } from "./stage-blocks.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { type ScoredWindow, trialBaseName, windowLabel } from "./target.js";
import { writeFileAtomically, writeJsonFileAtomically } from "../files/json.js";
import type { Policy } from "../policy/parse.js";
import { finalScoreFile, liveScoreFile } from "../scores/score-files.js";

const CSV_HEADER = "address,score\n";
/** `0x`, 40 digits, a comma, a uint64's 20 digits at most and a newline. */
const MAX_LINE_BYTES = 2 + 2 * ADDRESS_BYTES + 1 + 20 + 1;
const HEX_DIGITS = Buffer.from("0123456789abcdef", "latin1");
const [CHAR_0, CHAR_X, CHAR_COMMA, CHAR_NEWLINE] = [..."0x,\n"].map((c) =>
  c.charCodeAt(0),
) as [number, number, number, number];

/**
 * The score file's bytes: `address,score`, one line per address, by address.
 * Written byte by byte into one buffer from the packed rows (a line is at
 * most 64 bytes), with no string or object per row: for 1,000,000 rows the
 * rows as objects, then as lines, took 0.5 s and 250 MB of heap.
 */
export function scoreCsv(rows: PackedRows): Buffer {
  const count = rows.scores.length;
  const addresses = bytesOf(rows.addresses);
  const csv = Buffer.allocUnsafe(CSV_HEADER.length + count * MAX_LINE_BYTES);
  let at = csv.write(CSV_HEADER, 0, "latin1");
  for (let i = 0; i < count; i++) {
    csv[at++] = CHAR_0;
    csv[at++] = CHAR_X;
    for (let b = i * ADDRESS_BYTES; b < (i + 1) * ADDRESS_BYTES; b++) {
      const byte = addresses[b] as number;
      csv[at++] = HEX_DIGITS[byte >> 4] as number;
      csv[at++] = HEX_DIGITS[byte & 15] as number;
    }
    csv[at++] = CHAR_COMMA;
    at += csv.write((rows.scores[i] as bigint).toString(), at, "latin1");
    csv[at++] = CHAR_NEWLINE;
  }
  return csv.subarray(0, at);
}

/**
 * What a challenger needs to check a stage's file: the policy, the window, the
 * blocks (with the hashes of the first and last), each source's logs (count
 * and digest) and the output. Nothing in it depends on the machine, the
 * folder or the time it was made: the same stage computed anywhere gives the
 * same bytes.
 */
export function stageManifest(
  policy: Policy,
  {
    window,
    blocks,
    final,
    trial,
  }: {
    window: ScoredWindow;
    blocks: StageBlocks;
    final: boolean;
    /** A trial window (`--window`): its file can never be pushed. */
    trial: boolean;
  },
  computation: StageComputation,
  csv: Uint8Array,
  zeroed: string[] = [],
): StageManifest {
  return {
    stage: window.stage === null ? null : window.stage.toString(),
    ...(trial ? { trial: true as const } : {}),
    final,
    policy: {
      name: policy.name,
      file: path.basename(policy.file),
      fromStage: policy.fromStage.toString(),
      sha256: policy.sha256,
    },
    window: { start: window.start.toString(), end: window.end.toString() },
    blocks: {
      first:
        blocks.first === undefined
          ? null
          : { number: blocks.first.number.toString(), hash: blocks.first.hash },
      last: { number: blocks.last.number.toString(), hash: blocks.last.hash },
      rule: "blocks whose own timestamp t satisfies start <= t < end; logs up to the last of them",
    },
    sources: computation.sources,
    output: {
      file: path.basename(scoreFileOf(".", window, { final, trial })),
      sha256: createHash("sha256").update(csv).digest("hex"),
      addresses: computation.rows.scores.length,
      total: packedTotal(computation.rows).toString(),
    },
    engine: computation.engine,
    ...(zeroed.length === 0 ? {} : { zeroed }),
  };
}

/** A stage's manifest: every number as a decimal string, hashes in hex. */
export interface StageManifest {
  /** The stage's number; a trial's `--stage-number`, else null. */
  stage: string | null;
  /**
   * A trial over a window of the operator's choosing (`--window`): never
   * pushed nor finalized (`scores:update` refuses its file).
   */
  trial?: true;
  final: boolean;
  policy: { name: string; file: string; fromStage: string; sha256: string };
  window: { start: string; end: string };
  blocks: {
    first: { number: string; hash: string } | null;
    last: { number: string; hash: string };
    rule: string;
  };
  sources: StageComputation["sources"];
  output: { file: string; sha256: string; addresses: number; total: string };
  engine: string;
  /**
   * Addresses that held a score on chain which the policy does not give
   * them: written with 0 (the autopilot's final files).
   */
  zeroed?: string[];
}

/** The manifest's path beside the stage's files. */
export function manifestFile(dir: string, stage: bigint): string {
  return path.join(dir, `stage-${stage}.manifest.json`);
}

/** A trial's manifest: `window-<start>-<end>.manifest.json`. */
function trialManifestFile(dir: string, window: ScoredWindow): string {
  return path.join(dir, `${trialBaseName(window)}.manifest.json`);
}

/**
 * The score file of a computation: `stage-N.final.csv` once final, else
 * `stage-N.csv`; a trial's `window-<start>-<end>.csv`, whatever its stage
 * number, so it is never taken for a stage's.
 */
function scoreFileOf(
  dir: string,
  window: ScoredWindow,
  { final, trial }: { final: boolean; trial: boolean },
): string {
  if (trial || window.stage === null)
    return path.join(dir, `${trialBaseName(window)}.csv`);
  return final
    ? finalScoreFile(dir, window.stage)
    : liveScoreFile(dir, window.stage);
}

/**
 * Writes the computation's CSV (`stage-N.final.csv` once final, else
 * `stage-N.csv`; a trial's `window-<start>-<end>.csv`) and its manifest, each
 * whole or not at all, and, given the policy's text, the policy itself under
 * the manifest's name for it, so the folder alone is the set to publish. The
 * policy first, then the CSV, then the manifest: a manifest always describes
 * files that exist. A published policy is never overwritten: a different one
 * under the same name is refused before anything is written.
 */
export async function writeStageFiles(
  dir: string,
  manifest: StageManifest,
  csv: Uint8Array,
  policyText?: string,
): Promise<{ csv: string; manifest: string; policy?: string }> {
  const trial = manifest.trial === true || manifest.stage === null;
  const window = manifestWindow(manifest);
  const policy =
    policyText === undefined
      ? undefined
      : await policyCopy(dir, manifest, policyText);
  if (policy?.write === true)
    await writeFileAtomically(policy.path, policy.bytes);
  const file = scoreFileOf(dir, window, { final: manifest.final, trial });
  await writeFileAtomically(file, csv);
  const manifestPath =
    trial || window.stage === null
      ? trialManifestFile(dir, window)
      : manifestFile(dir, window.stage);
  await writeJsonFileAtomically(manifestPath, manifest);
  return {
    csv: file,
    manifest: manifestPath,
    ...(policy === undefined ? {} : { policy: policy.path }),
  };
}

/**
 * Where the policy's copy goes (`<dir>/<manifest's policy.file>`), its bytes,
 * and whether it must be written: not when the same bytes are there already.
 * Another policy under that name (one changed in place since it was
 * published) is refused.
 */
async function policyCopy(
  dir: string,
  manifest: StageManifest,
  policyText: string,
): Promise<{ path: string; bytes: Buffer; write: boolean }> {
  const target = path.join(dir, manifest.policy.file);
  const bytes = Buffer.from(policyText, "utf8");
  const there = await readFile(target).catch(() => undefined);
  if (there === undefined) return { path: target, bytes, write: true };
  const thereSha256 = createHash("sha256").update(there).digest("hex");
  if (thereSha256 === manifest.policy.sha256)
    return { path: target, bytes, write: false };
  throw new VipError(ERRORS.SCORING.RESULTS.POLICY_COPY_DIFFERS, {
    file: target,
    there: thereSha256,
    ran: manifest.policy.sha256,
    stage: windowLabel(manifestWindow(manifest), manifest.trial === true),
  });
}

/** The window a manifest describes. */
function manifestWindow(manifest: StageManifest): ScoredWindow {
  return {
    stage: manifest.stage === null ? null : BigInt(manifest.stage),
    start: BigInt(manifest.window.start),
    end: BigInt(manifest.window.end),
  };
}
