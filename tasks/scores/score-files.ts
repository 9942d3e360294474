import { stat } from "node:fs/promises";
import path from "node:path";

import { ensureNodeErrnoExceptionError } from "@nomicfoundation/hardhat-utils/error";
import { sleep } from "@nomicfoundation/hardhat-utils/lang";

import { readScoreFile, type ScoreFile } from "./read.js";
import { refuseTrialScores } from "./trial-guard.js";
import type { PushIntent } from "../contract/push-marker.js";

/**
 * `stage-<N>.csv`: the stage's scores so far, rewritten by the operator's
 * scoring job while the stage runs.
 */
export function liveScoreFile(dir: string, stage: bigint): string {
  return path.join(dir, `stage-${stage}.csv`);
}

/**
 * `stage-<N>.final.csv`: the stage's final scores, written once the stage is
 * over; the only file a stage is finalized from.
 */
export function finalScoreFile(dir: string, stage: bigint): string {
  return path.join(dir, `stage-${stage}.final.csv`);
}

/**
 * How a push of `file` calls itself (`push-marker.ts`): final for a
 * `stage-<N>.final.csv` (or any `*.final.csv` / `*.final.json`), live
 * otherwise.
 */
export function pushIntentOf(file: string): PushIntent {
  return /\.final\.(csv|json)$/i.test(file) ? "final" : "live";
}

/**
 * A file younger than this may still be being written (by a job that does not
 * write and rename).
 */
const SETTLE_MS = 2_000;

/**
 * The validated score file at `file`, or undefined when there is none. A file
 * modified within the last two seconds is read only once it has stopped
 * changing, so a job writing it in place is not read half-way. A bad file
 * throws `ScoreFileError` (every problem with its line), a trial's scores
 * (`refuseTrialScores`) are refused; nothing is ever pushed from either.
 */
export async function readStageFile(
  file: string,
  options: { allowEmpty: boolean },
): Promise<ScoreFile | undefined> {
  for (let previous: number | undefined; ;) {
    let modified: number;
    let size: number;
    try {
      ({ mtimeMs: modified, size } = await stat(file));
    } catch (error) {
      ensureNodeErrnoExceptionError(error);
      if (error.code === "ENOENT") return undefined;
      throw error;
    }
    const key = modified * 1e6 + size;
    const age = Date.now() - modified;
    if (age >= SETTLE_MS && key === (previous ?? key)) {
      const read = await readScoreFile(file, options);
      await refuseTrialScores(read);
      return read;
    }
    previous = key;
    await sleep(Math.max(100, SETTLE_MS - age) / 1000);
  }
}
