import { formatUnixTime } from "../output.js";

/**
 * The window a policy runs over, `[start, end)` in unix seconds: a stage's,
 * as the base chain's program recorded it, or a trial's, as the operator
 * chose it. `stage` is what the policy's `stage` table holds in its `stage`
 * column: the stage's number, or a trial's `--stage-number` (else null).
 */
export interface ScoredWindow {
  stage: bigint | null;
  start: bigint;
  end: bigint;
}

/**
 * What a computation covers: a stage of the program (its window read from
 * the base chain), or a trial window of the operator's choosing, which asks
 * the base chain nothing and whose files can never be pushed.
 */
export type ScoreTarget =
  | { kind: "stage"; stage: bigint }
  | {
      kind: "trial";
      start: bigint;
      end: bigint;
      /** The `stage` column's value: `--stage-number`, else null. */
      stageNumber: bigint | null;
    };

/** A trial's window as the policy sees it. */
export function trialWindow(
  target: Extract<ScoreTarget, { kind: "trial" }>,
): ScoredWindow {
  return { stage: target.stageNumber, start: target.start, end: target.end };
}

/** How messages name the window: `stage 7`, or `window 2026-11-01T00:00:00Z to …`. */
export function windowLabel(
  window: ScoredWindow,
  trial: boolean = false,
): string {
  if (!trial && window.stage !== null) return `stage ${window.stage}`;
  return (
    `window ${formatUnixTime(window.start)} to ${formatUnixTime(window.end)}` +
    (window.stage === null ? "" : ` (as stage ${window.stage})`)
  );
}

/** The base name of a trial's files: `window-<start>-<end>`, unix seconds. */
export function trialBaseName(window: ScoredWindow): string {
  return `window-${window.start}-${window.end}`;
}
