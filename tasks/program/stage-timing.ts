import type { VipProgram } from "../clients/l1-rest.js";
import { formatDuration, formatUnixTime } from "../output.js";

/**
 * How the end of the contract's open stage is known from the program's
 * `ModuleStore`.
 */
type EndBasis =
  /** The open stage is the program's current stage: its `stage_end_time`. */
  | "current"
  /**
   * The program is past the open stage: it has ended (its end is derived from
   * the back-to-back windows).
   */
  | "past"
  /**
   * The open stage is ahead of the program's counter (the agent has not
   * advanced it yet): projected by the interval.
   */
  | "projected";

/**
 * Initia's docs have asked operators to finalize within an hour of a stage's
 * end.
 */
export const DEFAULT_GRACE_SECONDS = 3_600n;

/** Where the contract's open stage stands on the base chain's clock. */
export interface OpenStageTiming {
  stage: bigint;
  /** Unix seconds, on the base chain's clock. */
  endTime: bigint;
  basis: EndBasis;
  /**
   * Whether the stage has ended on the base chain's clock: its final scores may
   * be pushed and it may be finalized.
   */
  due: boolean;
  /** Seconds until the end (negative once it has passed). */
  secondsLeft: bigint;
  /** Past half the grace after the end and not finalized: alerts escalate. */
  atRisk: boolean;
  /** Past the whole grace after the end and not finalized. */
  late: boolean;
}

/**
 * When the contract's open stage ends, and whether it is due, from the
 * program's clock alone. The VIP agent's `fund_reward_script` keeps the windows
 * back to back (start = previous end, end = start + interval) however late it
 * runs, so a stage's end is known for stages behind and ahead of the program's
 * counter too.
 *
 * A pure function of its inputs (no clock, no I/O): the autopilot's every
 * decision goes through it.
 */
export function openStageTiming(
  program: VipProgram,
  chainTime: bigint,
  openStage: bigint,
  graceSeconds: bigint,
): OpenStageTiming {
  let endTime: bigint;
  let basis: EndBasis;
  if (openStage === program.stage) {
    endTime = program.stageEndTime;
    basis = "current";
  } else if (openStage < program.stage) {
    endTime =
      program.stageStartTime -
      (program.stage - 1n - openStage) * program.stageInterval;
    basis = "past";
  } else {
    endTime =
      program.stageEndTime +
      (openStage - program.stage) * program.stageInterval;
    basis = "projected";
  }
  // A program past the open stage means the stage is over whatever the
  // arithmetic says (the interval may have changed since); otherwise only the
  // chain's clock reaching the end makes it due.
  const due = basis === "past" || chainTime >= endTime;
  const overdue = chainTime - endTime;
  return {
    stage: openStage,
    endTime,
    basis,
    due,
    secondsLeft: endTime - chainTime,
    atRisk: due && overdue * 2n >= graceSeconds,
    late: due && overdue >= graceSeconds,
  };
}

/**
 * The open stage's end and what it means now, in one line: "… (in 3 h 2 min)"
 * or "… (ended 5 min ago: due)".
 */
export function describeTiming(timing: OpenStageTiming): string {
  const end = formatUnixTime(timing.endTime);
  const basis =
    timing.basis === "projected"
      ? ", projected: the program's counter has not reached it yet"
      : "";
  if (!timing.due)
    return `${end} (in ${formatDuration(timing.secondsLeft)}${basis})`;
  const state = timing.late
    ? "due, past the grace"
    : timing.atRisk
      ? "due, at risk"
      : "due";
  return `${end} (ended ${formatDuration(timing.secondsLeft)} ago: ${state}${basis})`;
}
