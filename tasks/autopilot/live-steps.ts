import { stat } from "node:fs/promises";
import { performance } from "node:perf_hooks";

import { fetchChainTime } from "../clients/l1-rest.js";
import { ERRORS } from "../error-catalog.js";
import { isVipError, VipError, reasonOf } from "../errors.js";
import { formatDuration, formatUnixTime as iso } from "../output.js";
import type { PassView } from "./decide.js";
import { computeStageFiles } from "./policy-scores.js";
import { pushFile } from "./push-file.js";
import type { Runtime } from "./runtime.js";
import type { OpenStageTiming } from "../program/stage-timing.js";
import { liveScoreFile, readStageFile } from "../scores/score-files.js";

/**
 * The live file's version (its stage, time and size), to push each content
 * once; undefined when there is none (it is optional).
 */
export async function liveFileVersion(
  rt: Runtime,
  stage: bigint,
): Promise<string | undefined> {
  try {
    const { mtimeMs, size } = await stat(
      liveScoreFile(rt.options.scoresDir, stage),
    );
    return `${stage}:${mtimeMs}:${size}`;
  } catch {
    return undefined;
  }
}

/**
 * With `--policy`, every compute interval while the stage runs: the index
 * brought up to the head, and `stage-N.csv` with its manifest written from
 * the policy. A failure is a warning, tried again at the next poll: live
 * scores are never finalized from.
 */
export async function computeLive(rt: Runtime, view: PassView): Promise<void> {
  const { ctx, memory, options } = rt;
  const scoring = options.scoring;
  if (scoring === undefined) return;
  const stage = view.timing.stage;
  try {
    const scores = await computeStageFiles(
      ctx.score,
      scoring,
      options.scoresDir,
      stage,
      { final: false },
    );
    memory.computed = { stage, at: Date.now() };
    view.work.liveComputedAtMs = memory.computed.at;
    view.work.liveChanged =
      (await liveFileVersion(rt, stage)) !== memory.livePushed;
    ctx.monitor?.indexed(scores.indexed.behind);
    memory.resolve("compute", stage);
  } catch (error) {
    rt.block(
      stage,
      "warning",
      "compute",
      new VipError(
        ERRORS.AUTOPILOT.PASSES.LIVE_COMPUTE_FAILED,
        {
          stage,
          policy: scoring.policyPath,
          reason: reasonOf(error, "one line"),
        },
        error,
      ),
    );
  }
}

/**
 * Pushes the live file of a running stage (only the entries that differ),
 * marked live, checking the base chain's clock before each batch: a live
 * score must never land after the final ones.
 */
export async function pushLive(rt: Runtime, view: PassView): Promise<void> {
  const { ctx, memory, options } = rt;
  const { timing } = view;
  const stage = timing.stage;
  const file = liveScoreFile(options.scoresDir, stage);
  const version = await liveFileVersion(rt, stage);
  try {
    const live = await readStageFile(file, { allowEmpty: true });
    if (live === undefined) return;
    // A computation that wrote the same scores again changes the file's time,
    // not its content: nothing to push.
    const content = `${stage}:${live.sha256}`;
    if (live.table.length > 0 && content !== memory.livePushedSha) {
      ctx.out.line(
        `stage ${stage} runs until ${iso(timing.endTime)}: ` +
          `pushing the live scores of ${live.path}`,
      );
      await pushFile(rt, live, stage, "live", {
        beforeBroadcast: liveClockCheck(rt, view),
      });
      rt.did(
        `stage ${stage}: live scores of ${live.path} pushed (${live.table.length} entries)`,
      );
    }
    memory.livePushed = version;
    memory.livePushedSha = content;
    memory.resolve("live", stage);
  } catch (error) {
    await liveFailed(rt, timing, file, error);
  }
}

/**
 * A live push that failed: a warning, unless the stage is no longer open (the
 * other host finalized it: that is reported as such), or the push stopped
 * because the stage's end came near (as it must).
 */
async function liveFailed(
  rt: Runtime,
  timing: OpenStageTiming,
  file: string,
  error: unknown,
): Promise<void> {
  const stage = timing.stage;
  if (causedBy(error, ERRORS.AUTOPILOT.PASSES.LIVE_WINDOW_CLOSED)) {
    rt.ctx.out.line(reasonOf(error, "one line"));
    return;
  }
  if (!(await rt.stillOpen(stage))) return;
  rt.block(
    stage,
    "warning",
    "live",
    new VipError(
      ERRORS.AUTOPILOT.PASSES.LIVE_PUSH_FAILED,
      { file, reason: reasonOf(error, "one line") },
      error,
    ),
  );
}

/**
 * Refuses a live batch once the stage's end is within the live margin on the
 * base chain's clock. The clock is read again when a second has passed since
 * the last read (monotonic time, which a paused process does not stop), and
 * extrapolated in between: one read per second of pushing, not per batch.
 */
function liveClockCheck(rt: Runtime, view: PassView): () => Promise<void> {
  const { timing, liveMarginSeconds } = view;
  let chainTime = view.chainTime;
  let readAt = performance.now();
  return async () => {
    if (performance.now() - readAt > 1_000) {
      chainTime = await fetchChainTime(rt.options.l1RestUrl);
      readAt = performance.now();
    }
    const now =
      chainTime + BigInt(Math.floor((performance.now() - readAt) / 1000));
    if (now + liveMarginSeconds >= timing.endTime)
      throw new VipError(ERRORS.AUTOPILOT.PASSES.LIVE_WINDOW_CLOSED, {
        stage: timing.stage,
        endsAt: iso(timing.endTime),
        margin: formatDuration(liveMarginSeconds),
      });
  };
}

/** Whether `error`, or an error it wraps, was made from `descriptor`. */
function causedBy(
  error: unknown,
  descriptor: Parameters<typeof isVipError>[1],
): boolean {
  for (let e: unknown = error, depth = 0; depth < 6; depth++) {
    if (isVipError(e, descriptor)) return true;
    if (!(e instanceof Error)) return false;
    e = e.cause;
  }
  return false;
}
