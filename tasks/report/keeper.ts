import { readdir, stat } from "node:fs/promises";
import path from "node:path";

import { buildReport, type ReportOptions } from "./build.js";
import { SCORE_FILE } from "./inputs.js";

/**
 * The files of `dir` a report is built from: stages' score files and
 * manifests, and the policies beside them. Anything else there (a status
 * file the autopilot rewrites each pass) changes no page.
 */
function isReportInput(name: string): boolean {
  return (
    SCORE_FILE.test(name) ||
    /^stage-\d+\.manifest\.json$/.test(name) ||
    name.endsWith(".sql")
  );
}

/**
 * What the score files in `dir` are now: each report input's name, size
 * and time of change. A report built from the same signature is current.
 */
async function scoresSignature(dir: string): Promise<string> {
  const names = (await readdir(dir)).filter(isReportInput).sort();
  const parts: string[] = [];
  for (const name of names) {
    const { size, mtimeMs } = await stat(path.join(dir, name));
    parts.push(`${name}:${size}:${mtimeMs}`);
  }
  return parts.join("\n");
}

/**
 * Keeps a report current for a job that writes score files and finalizes
 * stages (`stage:autopilot --report-dir`): rebuilt when a score file changed
 * or a stage was finalized, left alone otherwise.
 */
export class ReportKeeper {
  #built: string | undefined;

  constructor(readonly options: ReportOptions) {}

  /**
   * Rebuilds the report when the score files changed since the last build,
   * or when `stageFinalized` (the chain changed what the pages say).
   * Returns whether it rebuilt.
   */
  async refresh(stageFinalized: boolean): Promise<boolean> {
    const signature = await scoresSignature(this.options.scoresDir);
    if (!stageFinalized && signature === this.#built) return false;
    await buildReport(this.options);
    this.#built = signature;
    return true;
  }
}
