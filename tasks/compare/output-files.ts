import path from "node:path";

import type { ScoreComparison } from "./compare.js";
import { compareCsvChunks } from "./csv.js";
import {
  PAGE_EVERY_LIMIT,
  type CompareView,
  type PolicyView,
} from "./page-view.js";
import { comparePage } from "./page.js";
import { pairScores } from "./paired-scores.js";
import type { ComparisonFile } from "./write-files.js";
import type { Policy } from "../policy/parse.js";
import type { ScoreRow } from "../scoring/score-rows.js";
import type { StageScores } from "../scoring/score-stage.js";
import { windowLabel } from "../scoring/target.js";

/** The current policy's rows and the proposed one's, in address order. */
type ComparedRows = readonly [readonly ScoreRow[], readonly ScoreRow[]];

const COMPARE_HTML = "compare.html";
const COMPARE_CSV = "compare.csv";

/**
 * A policy's copy beside the page: `current-` or `proposed-` and its file's
 * name, kept to letters, digits, `.`, `_` and `-`.
 */
function copyName(role: "current" | "proposed", policy: Policy): string {
  return `${role}-${path.basename(policy.file).replace(/[^A-Za-z0-9._-]/g, "_")}`;
}

function policyView(role: "current" | "proposed", policy: Policy): PolicyView {
  const { name, fromStage, sha256, sql } = policy;
  return { name, fromStage, sha256, sql, copy: copyName(role, policy) };
}

function compareView(
  current: StageScores,
  proposed: StageScores,
  comparison: ScoreComparison,
  [before, after]: ComparedRows,
): CompareView {
  const { window, blocks } = current;
  return {
    label: windowLabel(window, current.trial),
    window: { start: window.start.toString(), end: window.end.toString() },
    blocks: {
      first: blocks.firstNumber.toString(),
      last: blocks.last.number.toString(),
    },
    state: current.trial ? "trial" : current.final ? "final" : "live",
    current: policyView("current", current.policy),
    proposed: policyView("proposed", proposed.policy),
    comparison,
    every:
      comparison.addresses <= PAGE_EVERY_LIMIT
        ? [...pairScores(before, after)]
        : undefined,
    csv: COMPARE_CSV,
  };
}

/**
 * What `--out` receives: the page, the CSV of every address (in chunks),
 * and both policies' files as they ran, so the set stands on its own.
 */
export function comparisonFiles(
  current: StageScores,
  proposed: StageScores,
  comparison: ScoreComparison,
  /** Both policies' rows, as `compareScores` compared them. */
  rows: ComparedRows,
): ComparisonFile[] {
  const view = compareView(current, proposed, comparison, rows);
  return [
    { name: COMPARE_HTML, content: comparePage(view) },
    {
      name: COMPARE_CSV,
      content: compareCsvChunks(...rows, comparison.totals),
    },
    { name: view.current.copy, content: current.policy.sql },
    { name: view.proposed.copy, content: proposed.policy.sql },
  ];
}
