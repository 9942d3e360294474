import type { OpenStageTiming } from "../program/stage-timing.js";

/**
 * The wait after `failures` failed passes in a row: 2, 4, 8 … seconds, never
 * longer than the poll interval.
 */
export function backoffSeconds(failures: number, pollSeconds: number): number {
  return Math.min(pollSeconds, 2 ** Math.min(failures, 10));
}

/**
 * How long to sleep before the next poll, in seconds: the poll interval, but no
 * later than the open stage's end (so a stage is acted on within seconds of
 * ending), and at least a second.
 */
export function nextPollSeconds(
  timing: OpenStageTiming | undefined,
  pollSeconds: number,
): number {
  if (timing === undefined || timing.due) return pollSeconds;
  const untilEnd = Number(timing.secondsLeft);
  return Math.max(1, Math.min(pollSeconds, untilEnd));
}
