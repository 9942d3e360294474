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
import { ERRORS } from "../error-catalog.js";
import { firstLine, messageOf, VipError } from "../errors.js";
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
import type { ReportKeeper } from "../report/keeper.js";
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
  /** With `--report-dir`: the stages' report, rebuilt after a pass that changed it. */
  report?: ReportKeeper;
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

/** Why a due stage is left undone: the alert's text, and its error. */
interface Blocking {
  text: string;
  error: VipError;
}

/** What one pass found and did. */
interface PassResult {
  timing?: OpenStageTiming;
  finalized: bigint[];
  /** Why a due stage could not be finalized in this pass. */
  blocked?: Blocking;
  /** The pass failed before it could tell what is due (base chain, rollup). */
  failed?: Blocking;
}

export interface AutopilotReport {
  finalized: bigint[];
  /** Set when `once` ends with a due stage left undone. */
  blocked?: Blocking;
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
  const autopilot = new Autopilot(ctx, options, {
    updatedAt: "",
    pid: process.pid,
    contract: await ctx.score.getAddress(),
    chainId: ctx.chainId.toString(),
  });
  const finalized: bigint[] = [];
  let failures = 0;
  for (;;) {
    const pass = await autopilot.pass();
    finalized.push(...pass.finalized);
    failures = pass.failed === undefined ? 0 : failures + 1;
    autopilot.polled(pass);
    if (options.report !== undefined)
      await refreshReport(options.report, pass, ctx.out);
    const sleepSeconds =
      pass.failed !== undefined
        ? backoffSeconds(failures, options.pollSeconds)
        : nextPollSeconds(pass.timing, options.pollSeconds);
    await autopilot.saveStatus(options.once ? undefined : sleepSeconds);
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
 * Rebuilds the report when the pass changed a score file or finalized a
 * stage. A report that cannot be built is a warning: finalizing never waits
 * on it.
 */
async function refreshReport(
  report: ReportKeeper,
  pass: PassResult,
  out: Output,
): Promise<void> {
  try {
    if (await report.refresh(pass.finalized.length > 0))
      out.line(field("report", `${report.options.out} (index.html) rebuilt`));
  } catch (error) {
    out.warn(
      `the report in ${report.options.out} was not rebuilt: ${firstLine(error)}`,
    );
  }
}

/**
 * The autopilot's passes over one contract: what it runs on, its status file's
 * content, and what it remembers between passes.
 */
class Autopilot {
  readonly #ctx: AutopilotContext;
  readonly #options: AutopilotOptions;
  readonly #status: AutopilotStatus;
  readonly #memory: PassMemory;

  constructor(
    ctx: AutopilotContext,
    options: AutopilotOptions,
    status: AutopilotStatus,
  ) {
    this.#ctx = ctx;
    this.#options = options;
    this.#status = status;
    this.#memory = new PassMemory(options.graceSeconds, options.pollSeconds);
  }

  /**
   * One pass: read the clocks, then act on the open stage until nothing more
   * can be done now.
   */
  async pass(): Promise<PassResult> {
    const finalized: bigint[] = [];
    for (;;) {
      const clocks = await this.#readClocks();
      if ("failed" in clocks) {
        const { lastTiming } = this.#memory;
        return { timing: lastTiming, finalized, failed: clocks.failed };
      }
      const timing = this.#decide(clocks);
      const scoring = this.#options.scoring;
      if (!timing.due) {
        if (scoring !== undefined)
          await this.#computeLiveScores(scoring, timing);
        await this.#pushLiveScores(timing);
        return { timing, finalized };
      }
      if (scoring !== undefined) {
        const waiting = await this.#computeFinalScores(scoring, timing);
        if (waiting !== undefined)
          return { timing, finalized, blocked: waiting };
      }
      const outcome = await this.#finalizeDueStage(timing);
      if (outcome !== undefined) return { timing, finalized, blocked: outcome };
      finalized.push(timing.stage);
    }
  }

  /** The pass's outcome, to the metrics and the health check. */
  polled(pass: PassResult): void {
    this.#ctx.monitor?.polled(
      {
        openStage: pass.timing?.stage,
        endTime: pass.timing?.endTime,
        secondsLeft: pass.timing?.secondsLeft,
        atRisk: pass.timing?.atRisk,
        failed: pass.failed?.text,
        finalized: pass.finalized,
      },
      this.#status.lastError,
    );
  }

  /** Writes the status file; a failure is a warning. */
  async saveStatus(nextPollSeconds: number | undefined): Promise<void> {
    const status = this.#status;
    status.nextPollAt =
      nextPollSeconds === undefined
        ? undefined
        : new Date(Date.now() + nextPollSeconds * 1000).toISOString();
    status.updatedAt = new Date().toISOString();
    const file = this.#options.statusFile;
    try {
      await writeStatus(file, status);
    } catch (error) {
      this.#ctx.out.warn(
        `the status file ${file} could not be written: ${firstLine(error)}`,
      );
    }
  }

  /**
   * The program, the base chain's time and the contract's open stage; or,
   * when they cannot be read after retries, why not.
   */
  async #readClocks(): Promise<Clocks | { failed: Blocking }> {
    const { ctx, options } = { ctx: this.#ctx, options: this.#options };
    const failedAt = (endpoint: Endpoint) => (error: unknown) => {
      ctx.monitor?.readFailed(endpoint);
      throw error;
    };
    try {
      const [program, chainTime] = await Promise.all([
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
      const openStage = await ctx.score
        .openStage()
        .catch(failedAt("rollup-json-rpc"));
      this.#memory.resolve("unreachable");
      return { program, chainTime, openStage };
    } catch (error) {
      const { lastTiming } = this.#memory;
      const failed = this.#blocked(
        lastTiming?.stage ?? 0n,
        lastTiming?.atRisk === true ? "alert" : "warning",
        "unreachable",
        new VipError(
          ERRORS.AUTOPILOT.CLOCKS_UNREACHABLE,
          { reason: firstLine(messageOf(error)) },
          error,
        ),
      );
      return { failed };
    }
  }

  /** The open stage's timing from the clocks, announced when it changes. */
  #decide({ program, chainTime, openStage }: Clocks): OpenStageTiming {
    const memory = this.#memory;
    const timing = openStageTiming(
      program,
      chainTime,
      openStage,
      this.#options.graceSeconds,
    );
    const announced = `${timing.stage}:${timing.due}:${timing.atRisk}:${timing.late}`;
    if (announced !== memory.lastAnnounced) {
      this.#ctx.out.line(
        field(`open stage ${timing.stage} ends`, describeTiming(timing)),
      );
      memory.lastAnnounced = announced;
    }
    memory.lastTiming = timing;
    describeClocks(this.#status, program, chainTime, timing);
    return timing;
  }

  /**
   * Pushes the final file of a due stage, verifies it, and finalizes; returns
   * why not when it cannot.
   */
  async #finalizeDueStage(
    timing: OpenStageTiming,
  ): Promise<Blocking | undefined> {
    const stage = timing.stage;
    const file = finalScoreFile(this.#options.scoresDir, stage);
    const ended = this.#ended(timing);
    let final: ScoreFile | undefined;
    try {
      final = await readStageFile(file, { allowEmpty: true });
    } catch (error) {
      const reason =
        error instanceof ScoreFileError
          ? reasonOnOneLine(error)
          : firstLine(messageOf(error));
      return this.#blocked(
        stage,
        "alert",
        "bad-final",
        new VipError(
          ERRORS.AUTOPILOT.FINAL_FILE_INVALID,
          { ...ended, reason, file },
          error,
        ),
      );
    }
    if (final === undefined) {
      const late = timing.late ? ": PAST THE GRACE, the stage is late" : "";
      return this.#blocked(
        stage,
        timing.atRisk ? "alert" : "warning",
        "missing-final",
        new VipError(ERRORS.AUTOPILOT.FINAL_FILE_MISSING, {
          ...ended,
          file,
          late,
        }),
      );
    }
    this.#memory.resolve("missing-final", stage);
    this.#memory.resolve("bad-final", stage);
    try {
      await this.#pushAndFinalize(final, timing);
      return undefined;
    } catch (error) {
      const risk = timing.atRisk
        ? ` The stage is at risk: the grace ends at ${ended.graceEnds}.`
        : "";
      return this.#blocked(
        stage,
        "alert",
        "failed",
        new VipError(
          ERRORS.AUTOPILOT.FINALIZE_FAILED,
          { ...ended, reason: reasonOnOneLine(error), risk },
          error,
        ),
      );
    }
  }

  /** The final file pushed and verified on chain, then the stage finalized. */
  async #pushAndFinalize(
    final: ScoreFile,
    timing: OpenStageTiming,
  ): Promise<void> {
    const { ctx, options } = { ctx: this.#ctx, options: this.#options };
    const stage = timing.stage;
    const { endedAt } = this.#ended(timing);
    ctx.out.line(
      `stage ${stage} ended at ${endedAt} on the base chain's clock: ` +
        `pushing its final scores from ${final.path}`,
    );
    if (final.table.length > 0) {
      await this.#pushFile(final, stage);
    } else {
      // Nothing to push; the chain must hold nothing either (an address scored
      // earlier must be listed with 0).
      await verifyScores(ctx.score, stage, final, ctx.out);
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
    const restart = resumed
      ? " (sent before a restart, found by its journal)"
      : "";
    const how =
      receipt === undefined
        ? "by another transaction"
        : `in tx ${receipt.hash}, block ${receipt.blockNumber}${restart}`;
    const text =
      `finalized ${how}, from ${final.path} ` +
      `(${final.table.length} scores, verified on chain)`;
    ctx.out.line(field("finalized", `stage ${stage} ${how}`));
    this.#memory.resolve("failed", stage);
    ctx.alerts.raise("ok", stage, text);
    this.#status.lastAction = {
      at: new Date().toISOString(),
      text: `stage ${stage} ${text}`,
    };
  }

  /**
   * With `--policy`, every compute interval while the stage runs: the index
   * brought up to the head, and `stage-N.csv` with its manifest written from
   * the policy (pushed next, as a live file is). A failure is a warning, tried
   * again at the next poll: live scores are never finalized from.
   */
  async #computeLiveScores(
    scoring: PolicyScoring,
    timing: OpenStageTiming,
  ): Promise<void> {
    const { ctx, memory } = { ctx: this.#ctx, memory: this.#memory };
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
        this.#options.scoresDir,
        stage,
        { final: false },
      );
      memory.computed = { stage, at: Date.now() };
      ctx.monitor?.indexed(scores.indexed.behind);
      memory.resolve("compute", stage);
    } catch (error) {
      this.#blocked(
        stage,
        "warning",
        "compute",
        new VipError(
          ERRORS.AUTOPILOT.LIVE_COMPUTE_FAILED,
          { stage, policy: scoring.policyPath, reason: reasonOnOneLine(error) },
          error,
        ),
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
  async #computeFinalScores(
    scoring: PolicyScoring,
    timing: OpenStageTiming,
  ): Promise<Blocking | undefined> {
    const stage = timing.stage;
    const ended = this.#ended(timing);
    let scores;
    try {
      scores = await computeStageFiles(
        this.#ctx.score,
        scoring,
        this.#options.scoresDir,
        stage,
        { final: true },
      );
    } catch (error) {
      return this.#blocked(
        stage,
        "alert",
        "final-compute",
        new VipError(
          ERRORS.AUTOPILOT.FINAL_COMPUTE_FAILED,
          {
            ...ended,
            policy: scoring.policyPath,
            reason: reasonOnOneLine(error),
          },
          error,
        ),
      );
    }
    this.#ctx.monitor?.indexed(scores.indexed.behind);
    if (!scores.final) {
      const head = scores.blocks.last;
      return this.#blocked(
        stage,
        timing.atRisk ? "alert" : "warning",
        "final-compute",
        new VipError(ERRORS.AUTOPILOT.FINAL_WAITS_FOR_ROLLUP, {
          ...ended,
          head: head.number,
          headTime: iso(head.time),
        }),
      );
    }
    this.#memory.resolve("final-compute", stage);
    return undefined;
  }

  /**
   * Pushes the live file of a running stage when its content changed: only the
   * entries that differ.
   */
  async #pushLiveScores(timing: OpenStageTiming): Promise<void> {
    const stage = timing.stage;
    const file = liveScoreFile(this.#options.scoresDir, stage);
    let version: string;
    try {
      const { mtimeMs, size } = await stat(file);
      version = `${stage}:${mtimeMs}:${size}`;
    } catch {
      return; // no live file: it is optional
    }
    if (version === this.#memory.livePushed) return;
    try {
      const live = await readStageFile(file, { allowEmpty: true });
      if (live === undefined) return;
      if (live.table.length > 0) {
        this.#ctx.out.line(
          `stage ${stage} runs until ${iso(timing.endTime)}: ` +
            `pushing the live scores of ${live.path}`,
        );
        await this.#pushFile(live, stage);
        this.#status.lastAction = {
          at: new Date().toISOString(),
          text: `stage ${stage}: live scores of ${live.path} pushed (${live.table.length} entries)`,
        };
      }
      this.#memory.livePushed = version;
      this.#memory.resolve("live", stage);
    } catch (error) {
      this.#blocked(
        stage,
        "warning",
        "live",
        new VipError(
          ERRORS.AUTOPILOT.LIVE_PUSH_FAILED,
          { file, reason: reasonOnOneLine(error) },
          error,
        ),
      );
    }
  }

  /**
   * A score file to the stage as `scores:update --replace --skip-unchanged`
   * pushes it: only the entries the chain does not hold yet, journalled, read
   * back whole. A new content replaces the stage's earlier journal.
   */
  async #pushFile(file: ScoreFile, stage: bigint): Promise<void> {
    const ctx = this.#ctx;
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
        journalDir: this.#options.journalDir,
        network: this.#options.network,
        interactive: false,
      },
      ctx.out,
    );
    ctx.monitor?.pushed(report.addresses);
  }

  /** The params every blocking reason of a due stage starts with. */
  #ended(timing: OpenStageTiming): {
    stage: bigint;
    endedAt: string;
    graceEnds: string;
  } {
    return {
      stage: timing.stage,
      endedAt: iso(timing.endTime),
      graceEnds: iso(timing.endTime + this.#options.graceSeconds),
    };
  }

  /**
   * Raises the alert of `error` (at a bounded rate while it stands) and keeps
   * it as the status's last error.
   */
  #blocked(
    stage: bigint,
    level: AlertLevel,
    kind: string,
    error: VipError,
  ): Blocking {
    const text = error.text;
    this.#memory.alert(this.#ctx.alerts, level, stage, kind, text, error.code);
    this.#status.lastError = {
      at: new Date().toISOString(),
      text,
      code: error.code,
    };
    return { text, error };
  }
}

/** What a pass reads before it decides. */
interface Clocks {
  program: VipProgram;
  chainTime: bigint;
  openStage: bigint;
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
    code: string,
  ): void {
    const key = `${stage}:${kind}:${level}`;
    const last = this.#standing.get(key);
    if (last !== undefined && Date.now() - last < this.#repeatMs) return;
    this.#standing.set(key, Date.now());
    alerts.raise(level, stage, text, code);
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

/**
 * A multi-line message (a list of problems) as one line: an alert is one line
 * on stderr and one JSON string.
 */
function oneLine(message: string): string {
  return message.replace(/:\n\s*/g, ": ").replace(/\n\s*/g, "; ");
}

/** What went wrong, on one line. */
function reasonOnOneLine(error: unknown): string {
  return oneLine(messageOf(error));
}
