import { finalizeOnce } from "../contract/finalize.js";
import { stageWriteCount } from "../contract/fence.js";
import { type Disagreement, StageWrites } from "../contract/stage-writes.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { finalizeJournalPath } from "../journal/journal.js";
import { field, formatDuration, formatUnixTime as iso } from "../output.js";
import { type ScoreFile, readScoreFile } from "../scores/read.js";
import { finalScoreFile, readStageFile } from "../scores/score-files.js";
import { verifyScores } from "../scores/verify.js";
import type { PassView } from "./decide.js";
import { computeStageFiles } from "./policy-scores.js";
import { journalledProof, pushFile } from "./push-file.js";
import { reasonOnOneLine, type Runtime } from "./runtime.js";

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
    const reason = reasonOnOneLine(error);
    work.final = { kind: "failed" };
    work.blocked = true;
    rt.block(
      stage,
      "alert",
      "bad-final",
      new VipError(
        ERRORS.AUTOPILOT.FINAL_FILE_INVALID,
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
      new VipError(ERRORS.AUTOPILOT.FINAL_FILE_MISSING, {
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
  try {
    scores = await computeStageFiles(
      ctx.score,
      scoring,
      options.scoresDir,
      stage,
      { final: true },
    );
  } catch (error) {
    const reason = reasonOnOneLine(error);
    const params = { ...ended, policy: scoring.policyPath, reason };
    return stop(
      "failed",
      "alert",
      new VipError(ERRORS.AUTOPILOT.FINAL_COMPUTE_FAILED, params, error),
    );
  }
  ctx.monitor?.indexed(scores.indexed.behind);
  if (!scores.final) {
    const head = scores.blocks.last;
    return stop(
      "waiting",
      timing.atRisk ? "alert" : "warning",
      new VipError(ERRORS.AUTOPILOT.FINAL_WAITS_FOR_ROLLUP, {
        ...ended,
        head: head.number,
        headTime: iso(head.time),
      }),
    );
  }
  rt.memory.resolve("final-compute", stage);
  // Just written whole (write and rename): read at once.
  const final = await readScoreFile(finalScoreFile(options.scoresDir, stage), {
    allowEmpty: true,
  });
  ready(rt, view, final);
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
  const error = new VipError(ERRORS.AUTOPILOT.STANDBY_TAKES_OVER, {
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
 * The stage's writes since its end: another host's final scores that differ
 * from this host's file block the stage (with the alert naming them), as
 * overwriting them would start a tug of war between the hosts.
 */
export async function checkWrites(rt: Runtime, view: PassView): Promise<void> {
  const { timing, work } = view;
  const stage = timing.stage;
  const memory = rt.memory.stage(stage);
  try {
    memory.writes ??= new StageWrites(
      rt.provider,
      await rt.ctx.score.getAddress(),
      stage,
      await rt.blockNearEnd(
        stage,
        timing.basis === "past" ? undefined : timing.endTime,
      ),
      rt.me,
    );
    await memory.writes.update();
  } catch (error) {
    work.blocked = true;
    rt.block(
      stage,
      "alert",
      "writes",
      new VipError(
        ERRORS.AUTOPILOT.WRITES_UNREADABLE,
        { ...rt.ended(timing), reason: reasonOnOneLine(error) },
        error,
      ),
    );
    return;
  }
  const file = memory.final?.file;
  const found =
    file === undefined ? [] : memory.writes.disagreements(scoreIn(file));
  if (file === undefined || found.length === 0) {
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
    new VipError(ERRORS.AUTOPILOT.HOSTS_DISAGREE, {
      stage,
      count: found.length,
      file: file.path,
      me: rt.ctx.signerAddress,
      differences: describeDisagreements(found),
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

/** Shown in an alert: the first ten. */
const SHOWN_DISAGREEMENTS = 10;

function describeDisagreements(found: Disagreement[]): string {
  const shown = found
    .slice(0, SHOWN_DISAGREEMENTS)
    .map(
      ({ theirs, ours }) =>
        `${theirs.address}: ${theirs.score} from ${theirs.signer} (tx ${theirs.tx}), ${ours} here`,
    );
  const more =
    found.length > SHOWN_DISAGREEMENTS
      ? [`and ${found.length - SHOWN_DISAGREEMENTS} more`]
      : [];
  return [...shown, ...more].join("; ");
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
  try {
    if (final.table.length > 0) {
      await pushFile(rt, final, stage, "final");
      work.proof = await journalledProof(rt, stage);
    } else {
      work.proof = await proveEmpty(rt, final, stage);
    }
  } catch (error) {
    return dueFailed(rt, view, error);
  }
  rt.memory.resolve("failed", stage);
  return undefined;
}

/**
 * A final file without scores: the stage must hold none either (an address
 * scored live must be in the file with 0). Proved at one block, with the
 * stage's write count there.
 */
async function proveEmpty(
  rt: Runtime,
  final: ScoreFile,
  stage: bigint,
): Promise<PassView["work"]["proof"]> {
  const { score } = rt.ctx;
  const block = await rt.provider.getBlockNumber();
  const writeCount = await stageWriteCount(score, stage, block);
  await verifyScores(score, stage, final, rt.ctx.out);
  const after = await stageWriteCount(score, stage);
  return {
    sha256: final.sha256,
    final: true,
    block,
    ...(writeCount === undefined || writeCount !== after ? {} : { writeCount }),
  };
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
  if ((await rt.ctx.score.openStage().catch(() => stage)) !== stage)
    return "moved";
  work.disagreement = undefined;
  await checkWrites(rt, view);
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
      ERRORS.AUTOPILOT.FINALIZE_FAILED,
      { ...ended, reason: reasonOnOneLine(error), risk },
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
  const { timing, work } = view;
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
    if (writeCount !== undefined) {
      const now = await stageWriteCount(ctx.score, stage).catch(
        () => writeCount,
      );
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
        return undefined;
      }
    }
    return dueFailed(rt, view, error);
  }
  if (result.receipt === undefined) return "moved";
  finalized(rt, view, result.receipt, result.resumed);
  return "finalized";
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
