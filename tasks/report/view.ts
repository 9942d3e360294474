import type { StageChanges } from "./changes.js";
import type { StageState } from "./format.js";
import type { Bucket } from "./histogram.js";
import type { ReportManifest } from "./manifest.js";
import type { RankedEntry } from "./model.js";

/** Everything a stage's page shows, worked out; the pages only render it. */
export interface StageView {
  stage: bigint;
  state: StageState;
  /** The files beside the pages, by name: the scores, and the manifest if any. */
  files: { csv: string; manifest?: string };
  manifest?: ReportManifest;
  /** The policy's SQL and where its copy is in the site (the manifest's name for it). */
  policy?: { sql: string; file: string };
  /** The rollup's network as the pages' commands name it. */
  network: string;
  count: number;
  total: bigint;
  /** The highest `SHOWN` scores. */
  top: RankedEntry[];
  histogram: Bucket[];
  /** Absent for the first stage in the folder. */
  changes?: StageChanges;
  previous?: bigint;
  next?: bigint;
}

/** How many addresses the top list and each list of changes show. */
export const SHOWN = 25;

export function stagePageName(stage: bigint): string {
  return `stage-${stage}.html`;
}
