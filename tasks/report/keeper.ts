import { readdir, stat } from "node:fs/promises";
import path from "node:path";

import { buildReport, type ReportOptions } from "./build.js";

/**
 * What the score files in `dir` are now: each CSV's and manifest's name,
 * size and time of change. A report built from the same signature is current.
 */
async function scoresSignature(dir: string): Promise<string> {
  const names = (await readdir(dir))
    .filter((name) => name.endsWith(".csv") || name.endsWith(".json"))
    .sort();
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
