import { reportClose } from "./close-steps.js";
import type {
  AutopilotContext,
  AutopilotOptions,
  Blocking,
} from "./context.js";
import {
  decideNext,
  type PassView,
  type Step,
  type StepKind,
} from "./decide.js";
import {
  checkWrites,
  computeFinal,
  type DueOutcome,
  finalize,
  pushFinal,
  readFinal,
  takeOver,
} from "./final-steps.js";
import { computeLive, liveFileVersion, pushLive } from "./live-steps.js";
import { AutopilotMemory } from "./memory.js";
import type { Endpoint } from "./monitor.js";
import { stageProof } from "./push-file.js";
import { Runtime } from "./runtime.js";
import {
  fetchChainTime,
  fetchVipProgram,
  type VipProgram,
} from "../clients/l1-rest.js";
import {
  UPDATE_SCORE_TOPIC,
  LogCursor,
  stageTopic,
} from "../contract/contract-logs.js";
import { stageWriteCount } from "../contract/fence.js";
import { ERRORS } from "../error-catalog.js";
import { reasonOf, VipError } from "../errors.js";
import { withRetry } from "../network/retry.js";
import { field, formatUnixTime as iso } from "../output.js";
import { type AutopilotStatus, describeRecentStages } from "./status.js";
import {
  describeTiming,
  openStageTiming,
  type OpenStageTiming,
} from "../program/stage-timing.js";

/** What one pass found and did. */
export interface PassResult {
  timing?: OpenStageTiming;
  finalized: bigint[];
  /** Why a due stage could not be finalized in this pass. */
  blocked?: Blocking;
  /** The pass failed before it could tell what is due (base chain, rollup). */
  failed?: Blocking;
  /** A standby with nothing to send: when it would act (base chain's clock). */
  standingByUntil?: bigint;
  /** The base chain's time when the pass read it. */
  chainTime?: bigint;
}

/** What the pass reads before it decides. */
interface Clocks {
  program: VipProgram;
  chainTime: bigint;
  openStage: bigint;
}

/** How a stage's work ended in this pass. */
interface StageOutcome {
  finalized?: boolean;
  /** The stage is no longer open: the pass goes on with the next. */
  moved?: boolean;
  blocked?: boolean;
  standingByUntil?: bigint;
}

/** Stages one pass goes through at most (catching up after a long outage). */
const MOST_STAGES_PER_PASS = 100;

/**
 * The autopilot's passes over one contract. Each pass observes (the clocks,
 * the chain's state of the open stage, the files, this host's journals), asks
 * `decideNext` what to do, carries the step out, and asks again, until there
 * is nothing more to do now; a stage finalized (here or elsewhere) lets the
 * pass go on with the next one, so stages that fell due while it was down are
 * caught up in order.
 */
export class Autopilot {
  readonly #rt: Runtime;

  constructor(
    ctx: AutopilotContext,
    options: AutopilotOptions,
    status: AutopilotStatus,
  ) {
    this.#rt = new Runtime(
      ctx,
      options,
      new AutopilotMemory(options.graceSeconds, options.pollSeconds),
      status,
    );
  }

  get status(): AutopilotStatus {
    return this.#rt.status;
  }

  /** One pass: observe, then decide and act until nothing more can be done now. */
  async pass(): Promise<PassResult> {
    const finalized: bigint[] = [];
    this.#rt.status.passes++;
    for (let i = 0; i < MOST_STAGES_PER_PASS; i++) {
      const seen = await this.#observe();
      if ("failed" in seen) {
        const { lastTiming } = this.#rt.memory;
        return { timing: lastTiming, finalized, failed: seen.failed };
      }
      const { view } = seen;
      let outcome: StageOutcome;
      try {
        outcome = await this.#work(view);
      } catch (error) {
        return {
          timing: view.timing,
          finalized,
          failed: this.#passFailed(view.timing.stage, error),
        };
      }
      if (outcome.finalized === true) finalized.push(view.timing.stage);
      if (outcome.finalized === true || outcome.moved === true) continue;
      return {
        timing: view.timing,
        finalized,
        chainTime: view.chainTime,
        ...(outcome.blocked === true ? { blocked: this.#rt.lastBlocking } : {}),
        ...(outcome.standingByUntil === undefined
          ? {}
          : { standingByUntil: outcome.standingByUntil }),
      };
    }
    return { timing: this.#rt.memory.lastTiming, finalized };
  }

  /** The pass's outcome, to the metrics and the health check. */
  polled(pass: PassResult): void {
    const { ctx, status } = this.#rt;
    ctx.monitor?.polled(
      {
        openStage: pass.timing?.stage,
        endTime: pass.timing?.endTime,
        secondsLeft: pass.timing?.secondsLeft,
        atRisk: pass.timing?.atRisk,
        failed: pass.failed?.text,
        finalized: pass.finalized,
      },
      status.lastError,
    );
    describeRecentStages(status, ctx.watch);
    ctx.monitor?.watched(ctx.watch, this.#rt.me);
  }

  /** Decides and acts on one stage until there is nothing more to do now. */
  async #work(view: PassView): Promise<StageOutcome> {
    const tried = new Map<StepKind, number>();
    const raised = this.#rt.lastBlocking;
    for (;;) {
      const step = decideNext(view, tried);
      tried.set(step.kind, (tried.get(step.kind) ?? 0) + 1);
      switch (step.kind) {
        case "wait":
          return {};
        case "stand-by":
          return { standingByUntil: step.until };
        case "blocked":
          // A step's failure raised its alert; what stops only by the
          // pass's bounds (the stage written again after every proof) says so.
          if (this.#rt.lastBlocking === raised) this.#keptChanging(view);
          return { blocked: true };
        default: {
          const outcome = await this.#act(step, view);
          if (outcome !== undefined) return outcome;
        }
      }
    }
  }

  /** Carries out one step; an outcome ends the stage's work in this pass. */
  async #act(step: Step, view: PassView): Promise<StageOutcome | undefined> {
    const rt = this.#rt;
    const moved = (result: DueOutcome): StageOutcome | undefined =>
      result === "moved" ? { moved: true } : undefined;
    switch (step.kind) {
      case "report-close":
        // A restarted host checks the stage another signer finalized while it
        // was away; a --once run (cron) would compute it at every run.
        await reportClose(rt, step.stage, {
          check: !(rt.options.once && rt.memory.closesAtStart.has(step.stage)),
        });
        view.closedStage = rt.memory.closes[0];
        return undefined;
      case "compute-live":
        return void (await computeLive(rt, view));
      case "push-live":
        return void (await pushLive(rt, view));
      case "read-final":
        return void (await readFinal(rt, view));
      case "compute-final":
        return void (await computeFinal(rt, view));
      case "take-over":
        return void takeOver(rt, view);
      case "check-writes":
        return void (await checkWrites(rt, view));
      case "push-final": {
        const outcome = moved(await pushFinal(rt, view, step.again));
        if (outcome === undefined) await this.#refreshChain(view);
        return outcome;
      }
      case "finalize": {
        const result = await finalize(rt, view, step.writeCount);
        if (result === "finalized") return { finalized: true };
        if (result === undefined) await this.#refreshChain(view);
        return moved(result);
      }
      default:
        return { blocked: true };
    }
  }

  /**
   * The program, the base chain's time and the contract's open stage, read;
   * the stages that closed since the last pass noted; the view built.
   */
  async #observe(): Promise<{ view: PassView } | { failed: Blocking }> {
    const clocks = await this.#readClocks();
    if ("failed" in clocks) return clocks;
    try {
      await this.#noteCloses(clocks.openStage);
      const timing = this.#timing(clocks);
      return { view: await this.#view(timing, clocks.chainTime) };
    } catch (error) {
      return { failed: this.#passFailed(clocks.openStage, error) };
    }
  }

  /**
   * The stages finalized since the last pass that this host did not finalize
   * (to be reported); at the first pass, the stage before the open one, so a
   * host that starts says how the last stage was closed.
   */
  async #noteCloses(openStage: bigint): Promise<void> {
    const { memory, ctx } = this.#rt;
    const atStart = memory.lastOpenStage === undefined;
    const from =
      memory.lastOpenStage ??
      (openStage > (await ctx.score.initStage()) ? openStage - 1n : openStage);
    for (let stage = from; stage < openStage; stage++) {
      if (memory.finalizedHere.has(stage) || memory.closes.includes(stage))
        continue;
      memory.closes.push(stage);
      if (atStart) memory.closesAtStart.add(stage);
    }
    memory.lastOpenStage = openStage;
    try {
      await ctx.watch.update();
    } catch (error) {
      ctx.out.warn(
        `the contract's writes could not be followed in this pass: ${reasonOf(error, "with code")}`,
      );
    }
  }

  /** What this host knows of the open stage now. */
  async #view(timing: OpenStageTiming, chainTime: bigint): Promise<PassView> {
    const { ctx, options, memory } = this.#rt;
    const stage = timing.stage;
    const kept = memory.stage(stage);
    const writeCount = ctx.fenced
      ? await stageWriteCount(ctx.score, stage)
      : undefined;
    // A final file kept from an earlier pass holds while nothing wrote the
    // stage since (a policy's file lists the chain's addresses with 0); a
    // scoring job's file is read again each pass (it may have been fixed).
    if (
      kept.final !== undefined &&
      (options.scoring === undefined ||
        writeCount === undefined ||
        kept.final.atWriteCount !== writeCount)
    )
      kept.final = undefined;
    const view: PassView = {
      role: options.role,
      timing,
      chainTime,
      nowMs: Date.now(),
      liveMarginSeconds: liveMarginSeconds(options.pollSeconds),
      work: {
        stage,
        liveChanged: false,
        final:
          kept.final === undefined
            ? { kind: "unknown" }
            : { kind: "ready", sha256: kept.final.file.sha256 },
        tookOver: kept.tookOver,
        blocked: false,
        ...(writeCount === undefined ? {} : { writeCount }),
      },
      ...(memory.closes[0] === undefined
        ? {}
        : { closedStage: memory.closes[0] }),
      ...(options.scoring === undefined
        ? {}
        : { computeIntervalSeconds: options.scoring.computeIntervalSeconds }),
    };
    if (memory.computed?.stage === stage)
      view.work.liveComputedAtMs = memory.computed.at;
    if (!timing.due && options.role.kind === "primary")
      view.work.liveChanged =
        (await liveFileVersion(this.#rt, stage)) !== memory.livePushed;
    if (timing.due) await this.#refreshChain(view);
    return view;
  }

  /**
   * This host's proof of the stage from its journal and, without the fence,
   * whether the stage was written after the proof's block; with the fence,
   * the stage's write count now.
   */
  async #refreshChain(view: PassView): Promise<void> {
    const { ctx } = this.#rt;
    const { work } = view;
    const proof = await stageProof(this.#rt, work.stage);
    work.proof = proof ?? work.proof;
    if (ctx.fenced) {
      const now = await stageWriteCount(ctx.score, work.stage);
      // Written since the last look: the other host's writes are read again
      // before anything is pushed over them.
      if (now !== work.writeCount) work.disagreement = undefined;
      work.writeCount = now;
      return;
    }
    const block = work.proof?.block;
    work.writtenSinceProof =
      block === undefined
        ? undefined
        : await this.#writtenAfter(work.stage, block);
  }

  /** Whether any `UpdateScore` of the stage was logged after `block`. */
  async #writtenAfter(stage: bigint, block: number): Promise<boolean> {
    const { ctx } = this.#rt;
    let found = false;
    await new LogCursor(
      this.#rt.provider,
      {
        address: await ctx.score.getAddress(),
        topics: [UPDATE_SCORE_TOPIC, null, stageTopic(stage)],
      },
      block + 1,
    ).readTo(await this.#rt.provider.getBlockNumber(), (logs) => {
      found = logs.length > 0;
      return found;
    });
    return found;
  }

  /**
   * The program, the base chain's time and the contract's open stage; or,
   * when they cannot be read after retries, why not.
   */
  async #readClocks(): Promise<Clocks | { failed: Blocking }> {
    const { ctx, options } = this.#rt;
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
      this.#rt.memory.resolve("unreachable");
      return { program, chainTime, openStage };
    } catch (error) {
      return { failed: this.#unreachable(error) };
    }
  }

  /** The alert of a pass that could not tell what is due. */
  #unreachable(error: unknown): Blocking {
    const { lastTiming } = this.#rt.memory;
    return this.#rt.block(
      lastTiming?.stage ?? 0n,
      lastTiming?.atRisk === true ? "alert" : "warning",
      "unreachable",
      new VipError(
        ERRORS.AUTOPILOT.PASSES.CLOCKS_UNREACHABLE,
        { reason: reasonOf(error) },
        error,
      ),
    );
  }

  /** The alert of a stage written again after each of this pass's proofs. */
  #keptChanging(view: PassView): void {
    const { timing } = view;
    const ended = this.#rt.ended(timing);
    this.#rt.block(
      timing.stage,
      timing.atRisk ? "alert" : "warning",
      "failed",
      new VipError(ERRORS.AUTOPILOT.PASSES.FINALIZE_FAILED, {
        ...ended,
        reason:
          "the stage was written again after each proof of this pass (another writer keeps writing it)",
        risk: "",
      }),
    );
  }

  /**
   * The alert of a pass that stopped midway on a read that failed: a step's
   * own failures are its alerts; this is what none of them caught.
   */
  #passFailed(stage: bigint, error: unknown): Blocking {
    const { lastTiming } = this.#rt.memory;
    return this.#rt.block(
      stage,
      lastTiming?.atRisk === true ? "alert" : "warning",
      "pass",
      new VipError(
        ERRORS.AUTOPILOT.PASSES.PASS_FAILED,
        { stage, reason: reasonOf(error) },
        error,
      ),
    );
  }

  /** The open stage's timing from the clocks, announced when it changes. */
  #timing({ program, chainTime, openStage }: Clocks): OpenStageTiming {
    const { ctx, options, memory, status } = this.#rt;
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
    return timing;
  }
}

/**
 * No live push starts this close to a stage's end, and a live push under way
 * stops there: at least a minute, at least a poll.
 */
function liveMarginSeconds(pollSeconds: number): bigint {
  return BigInt(Math.max(60, pollSeconds));
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
