import type { ScoreComparison } from "./compare.js";
import type { PairedScore } from "./paired-scores.js";

/** One side's policy as the page shows it. */
export interface PolicyView {
  name: string;
  fromStage: bigint;
  sha256: string;
  /** The whole file, shown escaped. */
  sql: string;
  /** The name of its copy beside the page. */
  copy: string;
}

/** Everything the comparison's page shows, worked out; the page only renders it. */
export interface CompareView {
  /** `stage 7`, or a trial's window. */
  label: string;
  window: { start: string; end: string };
  blocks: { first: string; last: string };
  /** `final`, `live`, or a trial's `trial`. */
  state: "final" | "live" | "trial";
  current: PolicyView;
  proposed: PolicyView;
  comparison: ScoreComparison;
  /** Every address, when they are few enough to list on the page. */
  every?: PairedScore[];
  /** The CSV's name beside the page. */
  csv: string;
}

/** How many addresses each list of the page shows. */
export const PAGE_SHOWN = 25;

/**
 * The most addresses the page lists one by one (with a filter); beyond it
 * the CSV holds them, and the page stays small whatever the count.
 */
export const PAGE_EVERY_LIMIT = 1_000;
