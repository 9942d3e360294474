import { readStageClose, type StageClose } from "../contract/contract-watch.js";
import { ERRORS } from "../error-catalog.js";
import { VipError, reasonOf } from "../errors.js";
import { field } from "../output.js";
import { computeStageFiles } from "./policy-scores.js";
import { listOnOneLine, type Runtime } from "./runtime.js";
import { compareWithChain, describeDifference } from "../scores/read-back.js";
import type { ScoreFile } from "../scores/read.js";
import { finalScoreFile, readStageFile } from "../scores/score-files.js";

/**
 * Says how a stage this host did not finalize was closed, and by whom: a
 * warning on the primary (it was late: a standby took the stage over, or a
 * person finalized it), an `ok` on a standby that had taken the stage over and
 * found the primary done first, a line otherwise. When this host has its own
 * final file of the stage, the finalized scores are checked against it: two
 * hosts that disagree are told, though a finalized stage can no longer change.
 */
export async function reportClose(
  rt: Runtime,
  stage: bigint,
  { check }: { check: boolean },
): Promise<void> {
  const { ctx, memory, options } = rt;
  memory.closes.splice(memory.closes.indexOf(stage), 1);
  const close = await closeOf(rt, stage);
  const by = close?.finalizedBy;
  if (by === undefined) {
    ctx.out.line(
      field(
        "closed",
        `stage ${stage} is finalized (its finalization was not found in the rollup's logs)`,
      ),
    );
    return;
  }
  if (by.signer === rt.me) {
    ctx.out.line(
      field(
        "closed",
        `stage ${stage} was finalized by this host's signer in tx ${by.tx}`,
      ),
    );
    return;
  }
  const primary = options.role.kind === "primary";
  const tookOver = memory.tookOver.has(stage);
  const error = new VipError(ERRORS.AUTOPILOT.TWO_HOSTS.FINALIZED_BY_OTHER, {
    stage,
    signer: by.signer,
    tx: by.tx,
    me: ctx.signerAddress,
    how: primary
      ? "this host, the primary, was late: a standby took the stage over, or it was finalized by hand"
      : tookOver
        ? "the primary finished it while this standby was taking it over; this standby stands down"
        : "the primary did its job",
  });
  if (primary || tookOver)
    memory.alert(
      ctx.alerts,
      primary ? "warning" : "ok",
      stage,
      "closed",
      error.text,
      error.code,
    );
  else ctx.out.line(field("closed", error.text));
  if (check) await checkClosed(rt, stage, by.signer);
}

/** What the watch saw of the stage's close, else what the chain says. */
async function closeOf(
  rt: Runtime,
  stage: bigint,
): Promise<StageClose | undefined> {
  const seen = rt.ctx.watch.closeOf(stage);
  if (seen?.finalizedBy !== undefined) return seen;
  try {
    const read = await readStageClose(
      rt.provider,
      await rt.ctx.score.getAddress(),
      stage,
      await rt.blockNearEnd(stage),
    );
    rt.ctx.watch.remember(read);
    return read;
  } catch (error) {
    rt.ctx.out.warn(
      `how stage ${stage} was finalized could not be read: ${reasonOf(error, "one line")}`,
    );
    return undefined;
  }
}

/**
 * The stage another signer finalized, against this host's own final file of
 * it (computed now with `--policy` when it has none): any difference is an
 * alert, for the operator to correct through governance in time.
 */
async function checkClosed(
  rt: Runtime,
  stage: bigint,
  signer: string,
): Promise<void> {
  const { ctx } = rt;
  let mine: ScoreFile | undefined;
  try {
    mine = await ownFinalFile(rt, stage);
    if (mine === undefined) return;
    const differences = await compareWithChain(ctx.score, stage, mine.table);
    if (differences.length === 0) {
      ctx.out.line(
        field(
          "agrees",
          `stage ${stage} on chain equals this host's final file ${mine.path}`,
        ),
      );
      return;
    }
    const path = mine.path;
    const shown = listOnOneLine(
      differences.map((d) => describeDifference(d, path)),
    );
    rt.block(
      stage,
      "alert",
      "finalized-differs",
      new VipError(ERRORS.AUTOPILOT.TWO_HOSTS.FINALIZED_DIFFERS, {
        stage,
        signer,
        file: mine.path,
        count: differences.length,
        differences: shown,
      }),
    );
  } catch (error) {
    ctx.out.warn(
      `stage ${stage} could not be checked against this host's final file: ${reasonOf(error, "one line")}`,
    );
  }
}

/** This host's final file of a stage: kept, computed (--policy), or read. */
async function ownFinalFile(
  rt: Runtime,
  stage: bigint,
): Promise<ScoreFile | undefined> {
  const { ctx, options, memory } = rt;
  const kept = memory.finals.get(stage);
  if (kept !== undefined) return kept;
  const path = finalScoreFile(options.scoresDir, stage);
  if (options.scoring !== undefined) {
    const scores = await computeStageFiles(
      ctx.score,
      options.scoring,
      options.scoresDir,
      stage,
      { final: true },
    );
    if (!scores.final) return undefined;
  }
  return readStageFile(path, { allowEmpty: true });
}
