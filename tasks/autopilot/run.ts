import { stat } from "node:fs/promises";

import type { Signer } from "ethers";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { sleep } from "@nomicfoundation/hardhat-utils/lang";
import {
  fetchChainTime,
  fetchVipProgram,
  type VipProgram,
} from "../clients/l1-rest.js";
import { runScoresUpdate } from "../scores/update.js";
import { finalizeOnce } from "../contract/finalize.js";
import { firstLine } from "../errors.js";
import { finalizeJournalPath } from "../journal/journal.js";
import { withRetry } from "../network/retry.js";
import { field, formatUnixTime as iso, type Output } from "../output.js";
import { ScoreFileError, type ScoreFile } from "../scores/read.js";
import { verifyScores } from "../scores/verify.js";
import type { AlertLevel, AlertSink } from "./alerts.js";
import type { AutopilotMonitor, Endpoint } from "./monitor.js";
import {
  finalScoreFile,
  liveScoreFile,
  readStageFile,
} from "../scores/score-files.js";
import {
  describeTiming,
  openStageTiming,
  type OpenStageTiming,
} from "../program/stage-timing.js";
import { backoffSeconds, nextPollSeconds } from "./schedule.js";
import { computeStageFiles, type PolicyScoring } from "./policy-scores.js";
import { type AutopilotStatus, writeStatus } from "./status.js";

export interface AutopilotOptions {
  scoresDir: string;
  /** Do what is due now and return; otherwise run until `signal` aborts. */
  once: boolean;
  pollSeconds: number;
  graceSeconds: bigint;
  statusFile: string;
  journalDir: string;
  l1RestUrl: string;
  moduleAddress: string;
  /** The `--network` it runs on: refusals name complete commands for it. */
  network: string;
  /** With `--policy`: the autopilot computes the score files itself. */
  scoring?: PolicyScoring;
}

export interface AutopilotContext {
  score: VipScore;
  signer: Signer;
  chainId: bigint;
  out: Output;
  alerts: AlertSink;
  /** With `--listen`: the metrics and the health check the autopilot feeds. */
  monitor?: AutopilotMonitor;
}

/** What one pass found and did. */
interface PassResult {
  timing?: OpenStageTiming;
  finalized: bigint[];
  /** Why a due stage could not be finalized in this pass. */
  blocked?: string;
  /** The pass failed before it could tell what is due (base chain, rollup). */
  failed?: string;
}

export interface AutopilotReport {
  finalized: bigint[];
  /** Set when `once` ends with a due stage left undone. */
  blocked?: string;
}

/**
 * The stage autopilot. Each pass reads the program's clock and the base chain's
 * time, decides from them alone whether the contract's open stage is due
 * (`openStageTiming`), and then either pushes the live score file (only entries
 * that differ) or, once the stage has ended, pushes the final file, verifies
 * every score on chain against it, and finalizes; stages that fell due while it
 * was down are caught up in order, each from its own final file. Everything it
 * sends goes through the same journalled code as `scores:update` and
 * `stage:finalize`, so a kill at any moment resumes exactly.
 */
export async function runAutopilot(
  ctx: AutopilotContext,
  options: AutopilotOptions,
): Promise<AutopilotReport> {
  const contract = await ctx.score.getAddress();
  const status: AutopilotStatus = {
    updatedAt: "",
    pid: process.pid,
    contract,
    chainId: ctx.chainId.toString(),
  };
  const memory = new PassMemory(options.graceSeconds, options.pollSeconds);
  const finalized: bigint[] = [];
  let failures = 0;
  for (;;) {
    const pass = await runPass(ctx, options, status, memory);
    finalized.push(...pass.finalized);
    failures = pass.failed === undefined ? 0 : failures + 1;
    ctx.monitor?.polled(
      {
        openStage: pass.timing?.stage,
        endTime: pass.timing?.endTime,
        secondsLeft: pass.timing?.secondsLeft,
        atRisk: pass.timing?.atRisk,
        failed: pass.failed,
        finalized: pass.finalized,
      },
      status.lastError,
    );
    const sleepSeconds =
      pass.failed !== undefined
        ? backoffSeconds(failures, options.pollSeconds)
        : nextPollSeconds(pass.timing, options.pollSeconds);
    status.nextPollAt = options.once
      ? undefined
      : new Date(Date.now() + sleepSeconds * 1000).toISOString();
    await saveStatus(options.statusFile, status, ctx.out);
    if (options.once) {
      const blocked = pass.failed ?? pass.blocked;
      return { finalized, ...(blocked === undefined ? {} : { blocked }) };
    }
    // Until stopped: SIGINT and SIGTERM end the process (the action gives the
    // lock back first).
    await sleep(sleepSeconds);
  }
}

/**
 * One pass: read the clocks, then act on the open stage until nothing more can
 * be done now.
 */
async function runPass(
  ctx: AutopilotContext,
  options: AutopilotOptions,
  status: AutopilotStatus,
  memory: PassMemory,
): Promise<PassResult> {
  const finalized: bigint[] = [];
  for (;;) {
    let program: VipProgram;
    let chainTime: bigint;
    let openStage: bigint;
    try {
      const failedAt = (endpoint: Endpoint) => (error: unknown) => {
        ctx.monitor?.readFailed(endpoint);
        throw error;
      };
      [program, chainTime] = await Promise.all([
        withRetry(
          "reading the VIP program",
          () => fetchVipProgram(options.l1RestUrl, options.moduleAddress),
          { retries: 3 },
        ),
        withRetry(
          "reading the base chain's time",
          () => fetchChainTime(options.l1RestUrl),
          { retries: 3 },
        ),
      ]).catch(failedAt("base-chain-rest"));
      openStage = await ctx.score
        .openStage()
        .catch(failedAt("rollup-json-rpc"));
    } catch (error) {
      const text = `cannot tell what is due: ${firstLine(error)}. Retrying with backoff; check the base chain's REST endpoint (L1_REST_URL) and the rollup's JSON-RPC (JSON_RPC_URL)`;
      const stage = memory.lastTiming?.stage ?? 0n;
      memory.alert(
        ctx.alerts,
        memory.lastTiming?.atRisk === true ? "alert" : "warning",
        stage,
        "unreachable",
        text,
      );
      status.lastError = { at: new Date().toISOString(), text };
      return { timing: memory.lastTiming, finalized, failed: text };
    }
    memory.resolve("unreachable");
    const timing = openStageTiming(
      program,
      chainTime,
      openStage,
      options.graceSeconds,
    );
    const announced = `${timing.stage}:${timing.due}:${timing.atRisk}:${timing.late}`;
    if (announced !== memory.lastAnnounced) {
      ctx.out.line(
        field(`open stage ${timing.stage} ends`, describeTiming(timing)),
      );
      memory.lastAnnounced = announced;
    }
    memory.lastTiming = timing;
    describeClocks(status, program, chainTime, timing);

    if (!timing.due) {
      if (options.scoring !== undefined)
        await computeLiveScores(
          ctx,
          options,
          options.scoring,
          status,
          memory,
          timing,
        );
      await pushLiveScores(ctx, options, status, memory, timing);
      return { timing, finalized };
    }
    if (options.scoring !== undefined) {
      const waiting = await computeFinalScores(
        ctx,
        options,
        options.scoring,
        status,
        memory,
        timing,
      );
      if (waiting !== undefined) return { timing, finalized, blocked: waiting };
    }
    const outcome = await finalizeDueStage(
      ctx,
      options,
      status,
      memory,
      timing,
    );
    if (outcome !== undefined) return { timing, finalized, blocked: outcome };
    finalized.push(timing.stage);
  }
}

/**
 * Pushes the final file of a due stage, verifies it, and finalizes; returns why
 * not when it cannot.
 */
async function finalizeDueStage(
  ctx: AutopilotContext,
  options: AutopilotOptions,
  status: AutopilotStatus,
  memory: PassMemory,
  timing: OpenStageTiming,
): Promise<string | undefined> {
  const stage = timing.stage;
  const file = finalScoreFile(options.scoresDir, stage);
  const ended = `stage ${stage} ended at ${iso(timing.endTime)} on the base chain's clock`;
  const graceEnds = iso(timing.endTime + options.graceSeconds);
  let final: ScoreFile | undefined;
  try {
    final = await readStageFile(file, { allowEmpty: true });
  } catch (error) {
    const text = `${ended}, but its final file is not valid, so nothing was pushed: ${error instanceof ScoreFileError ? oneLine(error.message) : firstLine(error)}. Fix ${file} (the grace ends at ${graceEnds})`;
    return blocked(ctx, status, memory, stage, "alert", "bad-final", text);
  }
  if (final === undefined) {
    const level: AlertLevel = timing.atRisk ? "alert" : "warning";
    const text = `${ended} and its final scores are missing: write ${file} (address,score; the header alone for a stage with no scores). The grace ends at ${graceEnds}${timing.late ? ": PAST THE GRACE, the stage is late" : ""}`;
    return blocked(ctx, status, memory, stage, level, "missing-final", text);
  }
  memory.resolve("missing-final", stage);
  memory.resolve("bad-final", stage);
  try {
    const out = ctx.out;
    out.line(`${ended}: pushing its final scores from ${final.path}`);
    if (final.table.length > 0) {
      await pushFile(ctx, options, final, stage);
    } else {
      // Nothing to push; the chain must hold nothing either (an address scored
      // earlier must be listed with 0).
      await verifyScores(ctx.score, stage, final, out);
    }
    const journal = finalizeJournalPath(
      options.journalDir,
      ctx.chainId,
      await ctx.score.getAddress(),
      stage,
    );
    const { receipt, resumed } = await finalizeOnce(
      ctx.score,
      ctx.signer,
      stage,
      journal,
      { network: options.network },
    );
    const how =
      receipt === undefined
        ? "by another transaction"
        : `in tx ${receipt.hash}, block ${receipt.blockNumber}${resumed ? " (sent before a restart, found by its journal)" : ""}`;
    const text = `finalized ${how}, from ${final.path} (${final.table.length} scores, verified on chain)`;
    ctx.out.line(field("finalized", `stage ${stage} ${how}`));
    memory.resolve("failed", stage);
    ctx.alerts.raise("ok", stage, text);
    status.lastAction = {
      at: new Date().toISOString(),
      text: `stage ${stage} ${text}`,
    };
    return undefined;
  } catch (error) {
    const reason = oneLine(
      error instanceof Error ? error.message : String(error),
    );
    const risk = timing.atRisk
      ? ` The stage is at risk: the grace ends at ${graceEnds}.`
      : "";
    const text = `${ended}, but pushing or finalizing it failed: ${reason}.${risk} Nothing is lost; the autopilot retries (or run it again)`;
    return blocked(ctx, status, memory, stage, "alert", "failed", text);
  }
}

/**
 * With `--policy`, every compute interval while the stage runs: the index
 * brought up to the head, and `stage-N.csv` with its manifest written from
 * the policy (pushed next, as a live file is). A failure is a warning, tried
 * again at the next poll: live scores are never finalized from.
 */
async function computeLiveScores(
  ctx: AutopilotContext,
  options: AutopilotOptions,
  scoring: PolicyScoring,
  status: AutopilotStatus,
  memory: PassMemory,
  timing: OpenStageTiming,
): Promise<void> {
  const stage = timing.stage;
  if (
    memory.computed?.stage === stage &&
    Date.now() - memory.computed.at < scoring.computeIntervalSeconds * 1000
  )
    return;
  try {
    const scores = await computeStageFiles(
      ctx.score,
      scoring,
      options.scoresDir,
      stage,
      { final: false },
    );
    memory.computed = { stage, at: Date.now() };
    ctx.monitor?.indexed(scores.indexed.behind);
    memory.resolve("compute", stage);
  } catch (error) {
    blocked(
      ctx,
      status,
      memory,
      stage,
      "warning",
      "compute",
      `the live scores of stage ${stage} could not be computed from ${scoring.policyPath}: ${oneLine(error instanceof Error ? error.message : String(error))}. Tried again at the next poll; only final scores are finalized from`,
    );
  }
}

/**
 * With `--policy`, once the stage is due: its final scores computed and
 * written. Returns why the stage must wait: the rollup has no block at or
 * after the end yet (the window is not closed on its clock), or the
 * computation failed (an incomplete index, a pruned block, a policy error).
 * Nothing is finalized then; the next poll tries again.
 */
async function computeFinalScores(
  ctx: AutopilotContext,
  options: AutopilotOptions,
  scoring: PolicyScoring,
  status: AutopilotStatus,
  memory: PassMemory,
  timing: OpenStageTiming,
): Promise<string | undefined> {
  const stage = timing.stage;
  const ended = `stage ${stage} ended at ${iso(timing.endTime)} on the base chain's clock`;
  const graceEnds = iso(timing.endTime + options.graceSeconds);
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
    const text = `${ended}, but its final scores could not be computed from ${scoring.policyPath}: ${oneLine(error instanceof Error ? error.message : String(error))}. Nothing is finalized; the autopilot tries again (the grace ends at ${graceEnds})`;
    return blocked(ctx, status, memory, stage, "alert", "final-compute", text);
  }
  ctx.monitor?.indexed(scores.indexed.behind);
  if (!scores.final) {
    const level: AlertLevel = timing.atRisk ? "alert" : "warning";
    const text = `${ended}, but the rollup has no block at or after its end yet (its head is block ${scores.blocks.last.number} at ${iso(scores.blocks.last.time)}): the final scores wait for it (the grace ends at ${graceEnds})`;
    return blocked(ctx, status, memory, stage, level, "final-compute", text);
  }
  memory.resolve("final-compute", stage);
  return undefined;
}

/**
 * Pushes the live file of a running stage when its content changed: only the
 * entries that differ.
 */
async function pushLiveScores(
  ctx: AutopilotContext,
  options: AutopilotOptions,
  status: AutopilotStatus,
  memory: PassMemory,
  timing: OpenStageTiming,
): Promise<void> {
  const stage = timing.stage;
  const file = liveScoreFile(options.scoresDir, stage);
  let version: string;
  try {
    const { mtimeMs, size } = await stat(file);
    version = `${stage}:${mtimeMs}:${size}`;
  } catch {
    return; // no live file: it is optional
  }
  if (version === memory.livePushed) return;
  try {
    const live = await readStageFile(file, { allowEmpty: true });
    if (live === undefined) return;
    if (live.table.length > 0) {
      ctx.out.line(
        `stage ${stage} runs until ${iso(timing.endTime)}: pushing the live scores of ${live.path}`,
      );
      await pushFile(ctx, options, live, stage);
      status.lastAction = {
        at: new Date().toISOString(),
        text: `stage ${stage}: live scores of ${live.path} pushed (${live.table.length} entries)`,
      };
    }
    memory.livePushed = version;
    memory.resolve("live", stage);
  } catch (error) {
    const reason = oneLine(
      error instanceof Error ? error.message : String(error),
    );
    blocked(
      ctx,
      status,
      memory,
      stage,
      "warning",
      "live",
      `the live scores of ${file} were not pushed: ${reason}. It is retried at the next poll; only the final file counts for finalizing`,
    );
  }
}

/**
 * A score file to the stage as `scores:update --replace --skip-unchanged`
 * pushes it: only the entries the chain does not hold yet, journalled, read
 * back whole. A new content replaces the stage's earlier journal.
 */
async function pushFile(
  ctx: AutopilotContext,
  options: AutopilotOptions,
  file: ScoreFile,
  stage: bigint,
): Promise<void> {
  const report = await runScoresUpdate(
    ctx.score,
    ctx.signer,
    file,
    {
      stage,
      dryRun: false,
      replace: true,
      skipUnchanged: true,
      maxInFlight: 0,
      journalDir: options.journalDir,
      network: options.network,
      interactive: false,
    },
    ctx.out,
  );
  ctx.monitor?.pushed(report.addresses);
}

function blocked(
  ctx: AutopilotContext,
  status: AutopilotStatus,
  memory: PassMemory,
  stage: bigint,
  level: AlertLevel,
  kind: string,
  text: string,
): string {
  memory.alert(ctx.alerts, level, stage, kind, text);
  status.lastError = { at: new Date().toISOString(), text };
  return text;
}

function describeClocks(
  status: AutopilotStatus,
  program: VipProgram,
  chainTime: bigint,
  timing: OpenStageTiming,
): void {
  status.program = {
    stage: program.stage.toString(),
    stageStartTime: iso(program.stageStartTime),
    stageEndTime: iso(program.stageEndTime),
    stageInterval: program.stageInterval.toString(),
  };
  status.baseChainTime = iso(chainTime);
  status.openStage = timing.stage.toString();
  status.due = {
    stage: timing.stage.toString(),
    endsAt: iso(timing.endTime),
    basis: timing.basis,
    due: timing.due,
    secondsLeft: timing.secondsLeft.toString(),
    atRisk: timing.atRisk,
    late: timing.late,
  };
}

/**
 * What the autopilot remembers between passes: which alerts are standing (so a
 * standing one repeats at a bounded rate, and an `ok` can follow once it is
 * resolved), the live file last pushed, the last timing.
 */
class PassMemory {
  readonly #standing = new Map<string, number>();
  readonly #repeatMs: number;
  livePushed?: string;
  /** The last live computation from the policy. */
  computed?: { stage: bigint; at: number };
  lastTiming?: OpenStageTiming;
  lastAnnounced?: string;

  constructor(graceSeconds: bigint, pollSeconds: number) {
    // A standing alert repeats a dozen times across the grace, never more often
    // than the autopilot polls.
    this.#repeatMs = Math.max(
      pollSeconds * 1000,
      (Number(graceSeconds) * 1000) / 12,
    );
  }

  alert(
    alerts: AlertSink,
    level: AlertLevel,
    stage: bigint,
    kind: string,
    text: string,
  ): void {
    const key = `${stage}:${kind}:${level}`;
    const last = this.#standing.get(key);
    if (last !== undefined && Date.now() - last < this.#repeatMs) return;
    this.#standing.set(key, Date.now());
    alerts.raise(level, stage, text);
  }

  /**
   * Forgets the standing alerts of `kind` (for `stage`, or any), so the next
   * one is raised at once.
   */
  resolve(kind: string, stage?: bigint): void {
    for (const key of [...this.#standing.keys()]) {
      const [keyStage, keyKind] = key.split(":");
      if (
        keyKind === kind &&
        (stage === undefined || keyStage === stage.toString())
      )
        this.#standing.delete(key);
    }
  }
}

async function saveStatus(
  file: string,
  status: AutopilotStatus,
  out: Output,
): Promise<void> {
  status.updatedAt = new Date().toISOString();
  try {
    await writeStatus(file, status);
  } catch (error) {
    out.warn(
      `the status file ${file} could not be written: ${firstLine(error)}`,
    );
  }
}

/**
 * A multi-line message (a list of problems) as one line: an alert is one line
 * on stderr and one JSON string.
 */
function oneLine(message: string): string {
  return message.replace(/:\n\s*/g, ": ").replace(/\n\s*/g, "; ");
}
