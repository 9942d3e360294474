import { setTimeout as delay } from "node:timers/promises";

import { type Supersession, supersession } from "../contract/succession.js";
import { reasonOf } from "../errors.js";
import { field, type Output } from "../output.js";
import type {
  AutopilotContext,
  AutopilotOptions,
  Blocking,
} from "./context.js";
import { Autopilot, type PassResult } from "./pass.js";
import { backoffSeconds, nextPollSeconds } from "./schedule.js";
import { writeStatus } from "./status.js";
import type { ReportKeeper } from "../report/keeper.js";

export type { AutopilotContext, AutopilotOptions } from "./context.js";

export interface AutopilotReport {
  finalized: bigint[];
  /** Set when `once` ends with a due stage left undone. */
  blocked?: Blocking;
  /** Set when a correction replaced the contract: the autopilot stopped. */
  superseded?: Supersession & { contract: string };
}

/**
 * The stage autopilot. Each pass reads the program's clock and the base
 * chain's time, and does what is due for the contract's open stage
 * (`Autopilot.pass`, which decides each step with `decideNext`): while the
 * stage runs, the live scores (the primary pushes them); once it has ended,
 * its final file, the other host's writes, the push and its proof, the
 * finalization, fenced by the proof. A standby does nothing while the primary
 * does its job, and the same once a stage is `--standby-after` past its end
 * and still open. Everything it sends goes through the same journalled code
 * as `scores:update` and `stage:finalize`, so a kill at any moment resumes
 * exactly. Runs until `options.signal` aborts (or one pass with `once`).
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
    role: options.role.kind,
    ...(options.role.kind === "standby"
      ? { standbyAfter: options.role.afterSeconds.toString() }
      : {}),
    signer: ctx.signerAddress,
    passes: 0,
  });
  const finalized: bigint[] = [];
  let failures = 0;
  for (;;) {
    if (aborted(options.signal)) return { finalized };
    const superseded = await replaced(ctx, options);
    if (superseded !== undefined) return { finalized, superseded };
    const pass = await autopilot.pass();
    finalized.push(...pass.finalized);
    failures = pass.failed === undefined ? 0 : failures + 1;
    autopilot.polled(pass);
    if (options.report !== undefined)
      await refreshReport(options.report, pass, ctx.out);
    const sleepSeconds =
      pass.failed !== undefined
        ? backoffSeconds(failures, options.pollSeconds)
        : nextPollSeconds(pass, options.pollSeconds);
    const stopping = options.once || aborted(options.signal);
    await saveStatus(
      autopilot,
      options,
      ctx.out,
      stopping ? undefined : sleepSeconds,
    );
    if (options.once) {
      const blocked = pass.failed ?? pass.blocked;
      return { finalized, ...(blocked === undefined ? {} : { blocked }) };
    }
    if (stopping || !(await pause(sleepSeconds, options.signal)))
      return { finalized };
  }
}

/**
 * What replaced the contract, when a correction did (`stage:correct` records
 * it in the project): the autopilot stops writing to it at once, alerting.
 */
async function replaced(
  ctx: AutopilotContext,
  options: AutopilotOptions,
): Promise<AutopilotReport["superseded"]> {
  if (options.ignitionPath === undefined) return undefined;
  const contract = await ctx.score.getAddress();
  const found = await supersession(options.ignitionPath, ctx.chainId, contract);
  if (found === undefined) return undefined;
  ctx.alerts.raise(
    "alert",
    found.fromStage,
    `${contract} was replaced by ${found.by} from stage ${found.fromStage} (stage:correct): ` +
      "this autopilot stops; started again, it runs on the new contract",
  );
  return { ...found, contract };
}

/** Whether `signal` has aborted (read afresh: a pass may take long). */
function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** Waits `seconds`; false when `signal` aborted the wait (or had already). */
async function pause(seconds: number, signal?: AbortSignal): Promise<boolean> {
  try {
    await delay(seconds * 1000, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Writes the status file; a failure is a warning. */
async function saveStatus(
  autopilot: Autopilot,
  options: AutopilotOptions,
  out: Output,
  nextPollSeconds: number | undefined,
): Promise<void> {
  const status = autopilot.status;
  status.nextPollAt =
    nextPollSeconds === undefined
      ? undefined
      : new Date(Date.now() + nextPollSeconds * 1000).toISOString();
  status.updatedAt = new Date().toISOString();
  try {
    await writeStatus(options.statusFile, status);
  } catch (error) {
    out.warn(
      `the status file ${options.statusFile} could not be written: ${reasonOf(error, "with code")}`,
    );
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
      `the report in ${report.options.out} was not rebuilt: ${reasonOf(error, "with code")}`,
    );
  }
}
