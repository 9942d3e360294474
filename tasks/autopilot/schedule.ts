import type { OpenStageTiming } from "../program/stage-timing.js";

/**
 * The wait after `failures` failed passes in a row: 2, 4, 8 … seconds, never
 * longer than the poll interval.
 */
export function backoffSeconds(failures: number, pollSeconds: number): number {
  return Math.min(pollSeconds, 2 ** Math.min(failures, 10));
}

/**
 * How long to sleep before the next poll, in seconds: the poll interval, but
 * no later than the open stage's end (so a stage is acted on within seconds
 * of ending), nor, for a standby, than the moment it would act; at least a
 * second.
 */
export function nextPollSeconds(
  pass: {
    timing?: OpenStageTiming;
    standingByUntil?: bigint;
    chainTime?: bigint;
  },
  pollSeconds: number,
): number {
  const { timing, standingByUntil, chainTime } = pass;
  let seconds = pollSeconds;
  if (timing !== undefined && !timing.due)
    seconds = Math.min(seconds, Number(timing.secondsLeft));
  if (standingByUntil !== undefined && chainTime !== undefined)
    seconds = Math.min(seconds, Number(standingByUntil - chainTime));
  return Math.max(1, seconds);
}
