import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import type { ScoreFile } from "./read.js";

/** A trial's files: `window-<start>-<end>.csv` and `….manifest.json`. */
const TRIAL_NAME = /^window-\d+-\d+\./;
const STAGE_FILE = /^stage-(\d+)\.(?:final\.)?(?:csv|json)$/;

/**
 * Refuses a trial's scores (`scores:compute --window`): a file named as a
 * trial's, or one that a trial manifest beside it describes (the same
 * sha256), or whose stage manifest says it is a trial, so a trial renamed
 * to `stage-N.final.csv` is refused as well. Nothing has been sent.
 */
export async function refuseTrialScores(file: ScoreFile): Promise<void> {
  const name = path.basename(file.path);
  const refuse = (why: string): never => {
    throw new VipError(ERRORS.SCORING.TRIAL_FILE_REFUSED, {
      file: file.path,
      why,
    });
  };
  if (TRIAL_NAME.test(name)) refuse("its name is a trial's");
  const dir = path.dirname(file.path);
  const stage = STAGE_FILE.exec(name)?.[1];
  const manifests = (await readdir(dir).catch(() => [] as string[])).filter(
    (entry) =>
      (TRIAL_NAME.test(entry) && entry.endsWith(".manifest.json")) ||
      entry === `stage-${stage}.manifest.json`,
  );
  for (const manifest of manifests) {
    const said = await trialManifest(path.join(dir, manifest));
    if (said === undefined) continue;
    if (said.sha256 === file.sha256 || manifest.startsWith("stage-"))
      refuse(`${manifest} describes it as a trial`);
  }
}

/** A manifest's output hash when it marks a trial; otherwise undefined. */
async function trialManifest(
  file: string,
): Promise<{ sha256: unknown } | undefined> {
  try {
    const manifest = JSON.parse(await readFile(file, "utf8")) as {
      trial?: unknown;
      output?: { sha256?: unknown };
    };
    return manifest.trial === true
      ? { sha256: manifest.output?.sha256 }
      : undefined;
  } catch {
    // A manifest that cannot be read says nothing about this file.
    return undefined;
  }
}
