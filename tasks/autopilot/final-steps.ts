import { computeStageFiles } from "./policy-scores.js";
import { pushFile, stageProof } from "./push-file.js";
import { stageWriteCount } from "../contract/fence.js";
import { finalizeOnce } from "../contract/finalize.js";
import { type Disagreement, StageWrites } from "../contract/stage-writes.js";
import { ERRORS } from "../error-catalog.js";
import { isVipError, VipError, reasonOf } from "../errors.js";
import { finalizeJournalPath } from "../journal/journal.js";
import { field, formatDuration, formatUnixTime as iso } from "../output.js";
import type { PassView } from "./decide.js";
import { listOnOneLine, type Runtime } from "./runtime.js";
import { proveEmptyStage } from "../scores/proof.js";
import { type ScoreFile, readScoreFile } from "../scores/read.js";
import { finalScoreFile, readStageFile } from "../scores/score-files.js";

/** What a due step found: the stage no longer open (finalized elsewhere). */
export type DueOutcome = "moved" | undefined;

/**
 * Without `--policy`: the due stage's `stage-N.final.csv`, read and checked.
 * Missing or invalid, it blocks the stage (with its alert).
 */
export async function readFinal(rt: Runtime, view: PassView): Promise<void> {
  const { timing, work } = view;
  const stage = timing.stage;
  const file = finalScoreFile(rt.options.scoresDir, stage);
  const ended = rt.ended(timing);
  let final: ScoreFile | undefined;
  try {
    final = await readStageFile(file, { allowEmpty: true });
  } catch (error) {
    const reason = reasonOf(error, "one line");
    work.final = { kind: "failed" };
    work.blocked = true;
    rt.block(
      stage,
      "alert",
      "bad-final",
      new VipError(
        ERRORS.AUTOPILOT.PASSES.FINAL_FILE_INVALID,
        { ...ended, reason, file },
        error,
      ),
    );
    return;
  }
  if (final === undefined) {
    const late = timing.late ? ": PAST THE GRACE, the stage is late" : "";
    work.final = { kind: "missing" };
    work.blocked = true;
    rt.block(
      stage,
      timing.atRisk ? "alert" : "warning",
      "missing-final",
      new VipError(ERRORS.AUTOPILOT.PASSES.FINAL_FILE_MISSING, {
        ...ended,
        file,
        late,
      }),
    );
    return;
  }
  rt.memory.resolve("missing-final", stage);
  rt.memory.resolve("bad-final", stage);
  ready(rt, view, final);
}

/**
 * With `--policy`: the due stage's final scores computed and written, once
 * the window has closed on both clocks. Until the rollup has a block at or
 * after the end, or when the computation fails, the stage waits (with its
 * alert); a standby that is not acting on the stage yet only warns.
 */
export async function computeFinal(rt: Runtime, view: PassView): Promise<void> {
  const { ctx, options } = rt;
  const scoring = options.scoring;
  if (scoring === undefined) return;
  const { timing, work } = view;
  const stage = timing.stage;
  const ended = rt.ended(timing);
  const acting = options.role.kind === "primary" || work.tookOver;
  const stop = (
    state: "failed" | "waiting",
    level: "alert" | "warning",
    error: VipError,
  ) => {
    work.final = { kind: state };
    work.blocked = acting;
    rt.block(stage, acting ? level : "warning", "final-compute", error);
  };
  let scores;
  let final: ScoreFile | undefined;
  try {
    scores = await computeStageFiles(
      ctx.score,
      scoring,
      options.scoresDir,
      stage,
      { final: true },
    );
    // Just written whole (write and rename): read at once.
    if (scores.final)
      final = await readScoreFile(finalScoreFile(options.scoresDir, stage), {
        allowEmpty: true,
      });
  } catch (error) {
    const reason = reasonOf(error, "one line");
    const params = { ...ended, policy: scoring.policyPath, reason };
    return stop(
      "failed",
      "alert",
      new VipError(ERRORS.AUTOPILOT.PASSES.FINAL_COMPUTE_FAILED, params, error),
    );
  }
  ctx.monitor?.indexed(scores.indexed.behind);
  if (!scores.final) {
    const head = scores.blocks.last;
    return stop(
      "waiting",
      timing.atRisk ? "alert" : "warning",
      new VipError(ERRORS.AUTOPILOT.PASSES.FINAL_WAITS_FOR_ROLLUP, {
        ...ended,
        head: head.number,
        headTime: iso(head.time),
      }),
    );
  }
  rt.memory.resolve("final-compute", stage);
  if (final !== undefined) ready(rt, view, final);
}

/** The final file is ready: remembered for the stage's later passes. */
function ready(rt: Runtime, view: PassView, file: ScoreFile): void {
  const stage = view.timing.stage;
  rt.memory.stage(stage).final = {
    file,
    ...(view.work.writeCount === undefined
      ? {}
      : { atWriteCount: view.work.writeCount }),
  };
  rt.memory.keepFinal(stage, file);
  view.work.final = { kind: "ready", sha256: file.sha256 };
}

/**
 * A standby past its time: it says, on both hosts' webhook, that it takes the
 * stage over.
 */
export function takeOver(rt: Runtime, view: PassView): void {
  const { timing, chainTime } = view;
  const stage = timing.stage;
  rt.memory.stage(stage).tookOver = true;
  rt.memory.tookOver.add(stage);
  view.work.tookOver = true;
  const error = new VipError(ERRORS.AUTOPILOT.TWO_HOSTS.STANDBY_TAKES_OVER, {
    stage,
    endedAt: iso(timing.endTime),
    after: formatDuration(chainTime - timing.endTime),
    signer: rt.ctx.signerAddress,
  });
  rt.memory.alert(
    rt.ctx.alerts,
    "warning",
    stage,
    "takeover",
    error.text,
    error.code,
  );
  rt.ctx.monitor?.tookOver();
  rt.did(`stage ${stage}: taken over from the primary`);
}

/**
 * The stage's writes since its end: another host's final push of another file
 * blocks the stage (with the alert naming the addresses where the scores
 * differ), as overwriting it would start a tug of war between the hosts.
 * `quiet`: a read that fails raises nothing (the caller has its own failure
 * to report).
 */
export async function checkWrites(
  rt: Runtime,
  view: PassView,
  { quiet = false }: { quiet?: boolean } = {},
): Promise<void> {
  const { timing, work } = view;
  const stage = timing.stage;
  const memory = rt.memory.stage(stage);
  let writes: StageWrites;
  try {
    writes = memory.writes ??= new StageWrites(
      rt.provider,
      await rt.ctx.score.getAddress(),
      stage,
      await rt.blockNearEnd(
        stage,
        timing.basis === "past" ? undefined : timing.endTime,
      ),
      rt.me,
    );
    await writes.update();
  } catch (error) {
    if (quiet) return;
    work.blocked = true;
    rt.block(
      stage,
      timing.atRisk ? "alert" : "warning",
      "writes",
      new VipError(
        ERRORS.AUTOPILOT.TWO_HOSTS.WRITES_UNREADABLE,
        { ...rt.ended(timing), reason: reasonOf(error, "one line") },
        error,
      ),
    );
    return;
  }
  const file = memory.final?.file;
  const found =
    file === undefined
      ? undefined
      : writes.disagreement(file.sha256, scoreIn(file));
  if (file === undefined || found === undefined) {
    work.disagreement = "none";
    rt.memory.resolve("disagree", stage);
    return;
  }
  work.disagreement = "found";
  work.blocked = true;
  rt.block(
    stage,
    "alert",
    "disagree",
    new VipError(ERRORS.AUTOPILOT.TWO_HOSTS.HOSTS_DISAGREE, {
      stage,
      signers: found.claims
        .map(
          (claim) =>
            `${claim.signer} (sha256 ${claim.sha256.slice(0, 16)}…, tx ${claim.tx})`,
        )
        .join(", "),
      file: file.path,
      ours: file.sha256.slice(0, 16),
      me: rt.ctx.signerAddress,
      differences: describeDisagreement(found),
    }),
  );
}

/** A file's score of an address (lowercase), undefined when it is not listed. */
function scoreIn(file: ScoreFile): (address: string) => bigint | undefined {
  return (address) => {
    const i = file.table.indexOf(address);
    return i === undefined ? undefined : file.table.score(i);
  };
}

function describeDisagreement({ addresses }: Disagreement): string {
  if (addresses.length === 0)
    return "no address it wrote differs yet: the files differ where it has written nothing";
  return listOnOneLine(
    addresses.map(
      ({ theirs, ours }) =>
        `${theirs.address}: ${theirs.score} from ${theirs.signer} (tx ${theirs.tx}), ${ours} here`,
    ),
  );
}

/**
 * The final file pushed, marked final, and proved on chain (by the push's own
 * events, or a read-back); the proof's block and write count are journalled
 * for the finalization's fence.
 */
export async function pushFinal(
  rt: Runtime,
  view: PassView,
  again: boolean,
): Promise<DueOutcome> {
  const { timing, work } = view;
  const stage = timing.stage;
  const final = rt.memory.stage(stage).final?.file;
  if (final === undefined) return undefined;
  const why = again ? " again: the stage was written after its proof" : "";
  rt.ctx.out.line(
    `stage ${stage} ended at ${iso(timing.endTime)} on the base chain's clock: ` +
      `pushing its final scores from ${final.path}${why}`,
  );
  // A final push of this file already on chain (the other host's, or this
  // host's before its proof went stale) is the claim: another would only
  // move the write count under the other host's fence.
  const claimed = rt.memory.stage(stage).writes?.claimed(final.sha256) === true;
  try {
    if (final.table.length > 0) {
      await pushFile(rt, final, stage, "final", { claim: !claimed });
      work.proof = await stageProof(rt, stage);
    } else {
      work.proof = await proveEmptyStage(
        rt.ctx.score,
        final,
        stage,
        rt.ctx.out,
      );
    }
  } catch (error) {
    return dueFailed(rt, view, error);
  }
  rt.memory.resolve("failed", stage);
  return undefined;
}

/**
 * A due step that failed: nothing to say when the stage is no longer open
 * (its close is reported); another host's final scores, when they are what
 * stands in the way; else the failure's alert.
 */
async function dueFailed(
  rt: Runtime,
  view: PassView,
  error: unknown,
): Promise<DueOutcome> {
  const { timing, work } = view;
  const stage = timing.stage;
  if (!(await rt.stillOpen(stage))) return "moved";
  work.disagreement = undefined;
  await checkWrites(rt, view, { quiet: true });
  if (work.blocked) return undefined;
  work.blocked = true;
  const ended = rt.ended(timing);
  const risk = timing.atRisk
    ? ` The stage is at risk: the grace ends at ${ended.graceEnds}.`
    : "";
  rt.block(
    stage,
    "alert",
    "failed",
    new VipError(
      ERRORS.AUTOPILOT.PASSES.FINALIZE_FAILED,
      { ...ended, reason: reasonOf(error, "one line"), risk },
      error,
    ),
  );
  return undefined;
}

/**
 * Finalizes the stage, journalled (`finalizeOnce`) and fenced by the proof's
 * write count where the contract has the fence. A fence that refuses (a write
 * landed after the proof: a paused host's stale push) is no alert: the next
 * decision pushes the final file again.
 */
export async function finalize(
  rt: Runtime,
  view: PassView,
  writeCount: bigint | undefined,
): Promise<"finalized" | DueOutcome> {
  const { ctx, options } = rt;
  const { timing } = view;
  const stage = timing.stage;
  const journal = finalizeJournalPath(
    options.journalDir,
    ctx.chainId,
    await ctx.score.getAddress(),
    stage,
  );
  const fence =
    writeCount === undefined
      ? "unfenced: the contract has no write count"
      : `fenced at write count ${writeCount}: refused if anything wrote the stage since its proof`;
  ctx.out.line(field("finalizing", `stage ${stage}, ${fence}`));
  let result;
  try {
    result = await finalizeOnce(ctx.score, ctx.signer, stage, journal, {
      network: options.network,
      ...(writeCount === undefined ? {} : { writeCount }),
    });
  } catch (error) {
    if (
      writeCount !== undefined &&
      (await refusedByFence(rt, view, writeCount, error))
    )
      return undefined;
    return dueFailed(rt, view, error);
  }
  if (result.receipt === undefined) return "moved";
  finalized(rt, view, result.receipt, result.resumed);
  return "finalized";
}

/**
 * Whether the finalization failed because the stage moved under its fence:
 * written after the proof (the next decision pushes the final file again,
 * computed again with --policy: the write may have added an address), or, once
 * a pass, a finalization sent before a restart with an older proof's count,
 * which failed on chain (sent again at the current count). Said as a line, no
 * alert.
 */
async function refusedByFence(
  rt: Runtime,
  view: PassView,
  writeCount: bigint,
  error: unknown,
): Promise<boolean> {
  const { ctx, options } = rt;
  const { work } = view;
  const stage = view.timing.stage;
  const memory = rt.memory.stage(stage);
  const now = await stageWriteCount(ctx.score, stage).catch(() => writeCount);
  if (now !== writeCount) {
    ctx.out.line(
      field(
        "fenced",
        `stage ${stage} was written after its proof (write count ${writeCount}, now ${now}): ` +
          "the finalization was refused, the final scores go again",
      ),
    );
    work.writeCount = now;
    work.disagreement = undefined;
    if (options.scoring !== undefined) {
      memory.final = undefined;
      work.final = { kind: "unknown" };
    }
    return true;
  }
  if (
    isVipError(error, ERRORS.CONTRACT.FINALIZE.FINALIZE_TX_FAILED) &&
    !memory.finalizeResent
  ) {
    memory.finalizeResent = true;
    ctx.out.line(
      field(
        "fenced",
        `a finalization of stage ${stage} sent before (with an older proof's count) failed on chain: ` +
          `sent again at write count ${writeCount}`,
      ),
    );
    return true;
  }
  return false;
}

function finalized(
  rt: Runtime,
  view: PassView,
  receipt: { hash: string; blockNumber: number },
  resumed: boolean,
): void {
  const { ctx } = rt;
  const stage = view.timing.stage;
  const final = rt.memory.stage(stage).final?.file;
  const restart = resumed
    ? " (sent before a restart, found by its journal)"
    : "";
  const how = `in tx ${receipt.hash}, block ${receipt.blockNumber}${restart}`;
  const takeover = view.work.tookOver ? " (taken over by this standby)" : "";
  const text =
    `finalized ${how}, from ${final?.path ?? "its final file"} ` +
    `(${final?.table.length ?? 0} scores, verified on chain)${takeover}`;
  ctx.out.line(field("finalized", `stage ${stage} ${how}`));
  rt.memory.resolve("failed", stage);
  rt.memory.finalizedHere.add(stage);
  ctx.alerts.raise("ok", stage, text);
  rt.did(`stage ${stage} ${text}`);
}
