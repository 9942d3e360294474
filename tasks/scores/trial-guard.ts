import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import type { ScoreFile } from "./read.js";

/**
 * A trial's file name: `window-<start>-<end>.csv`, `….manifest.json`
 * (`trialBaseName` in tasks/scoring/target.ts makes it).
 */
const TRIAL_FILE = /^window-\d+-\d+\./;

const STAGE_FILE = /^stage-(\d+)\.(?:final\.)?(?:csv|json)$/;

/** What a manifest says of the file it describes, as far as a trial goes. */
interface ManifestSays {
  trial: boolean;
  sha256: unknown;
}

/**
 * Refuses a trial's scores (`scores:compute --window`) wherever a push reads
 * a file (`scores:update`, `stage:correct`, the autopilot): a file named as a
 * trial's; a stage file whose own manifest marks a trial; or one with a
 * trial's bytes beside that trial's manifest, unless its own stage manifest
 * describes those very bytes (a stage computed over the window a trial
 * tried gives the same file). An empty file publishes no trial's scores.
 * Nothing has been sent.
 */
export async function refuseTrialScores(file: ScoreFile): Promise<void> {
  const name = path.basename(file.path);
  const refuse = (why: string): never => {
    throw new VipError(ERRORS.SCORING.RESULTS.TRIAL_FILE_REFUSED, {
      file: file.path,
      why,
    });
  };
  if (TRIAL_FILE.test(name)) refuse("its name is a trial's");
  if (file.table.length === 0) return;
  const dir = path.dirname(file.path);
  const stage = STAGE_FILE.exec(name)?.[1];
  const ownName = `stage-${stage}.manifest.json`;
  const own =
    stage === undefined
      ? undefined
      : await manifestSays(path.join(dir, ownName));
  if (own?.trial === true) refuse(`${ownName} describes it as a trial`);
  if (own?.sha256 === file.sha256) return;
  const trials = (await readdir(dir).catch(() => [] as string[])).filter(
    (entry) => TRIAL_FILE.test(entry) && entry.endsWith(".manifest.json"),
  );
  for (const manifest of trials) {
    const said = await manifestSays(path.join(dir, manifest));
    if (said?.trial === true && said.sha256 === file.sha256)
      refuse(`${manifest} describes it as a trial`);
  }
}

/** A manifest's trial mark and output hash; undefined when it cannot be read. */
async function manifestSays(file: string): Promise<ManifestSays | undefined> {
  try {
    const manifest = JSON.parse(await readFile(file, "utf8")) as {
      trial?: unknown;
      output?: { sha256?: unknown };
    };
    return { trial: manifest.trial === true, sha256: manifest.output?.sha256 };
  } catch {
    // A manifest that cannot be read says nothing about this file.
    return undefined;
  }
}
