import { type ChildProcess, fork } from "node:child_process";
import { readFile } from "node:fs/promises";
import type { Socket } from "node:net";

import { ERRORS } from "../error-catalog.js";
import { vipErrorFromWire, type WireError } from "../error-wire.js";
import { VipError } from "../errors.js";
import { safeText } from "../output.js";
import type { CheckJob, CheckOutcome } from "./check-engine.js";
import type { StageComputation, StageJob } from "./compute-engine.js";
import type { WorkerAnswer } from "./compute-worker.js";

/**
 * How long past its time bound the engine's process may take to stop by
 * itself (an interrupted query ends within it) before it is killed.
 */
const GRACE_MS = 2_000;
/** How often the engine's process's memory is read. */
const MEMORY_POLL_MS = 100;
/**
 * What the engine's process may hold beyond its buffers' bound: Node, the
 * engine's own structures, the answer on its way back.
 */
const PROCESS_OVERHEAD_MB = 512;
/** The end of what the engine wrote to stderr, kept for a refusal. */
const KEPT_STDERR_CHARS = 2_000;

/** Why the engine's process was stopped from here, if it was. */
type Stop = "time" | "memory" | undefined;

interface Exit {
  code: number | null;
  signal: string | null;
}

/**
 * The process a policy runs in (`compute-worker`): started ahead of its job
 * (its start-up overlaps the indexing), then given one job and watched: it
 * is killed past the job's time bound plus a grace, and when it holds more
 * than the job's memory bound plus the process's own overhead. Whatever
 * happens inside it, this process gets an answer or a refusal.
 */
export class EngineProcess {
  /** A worker started ahead by `warmUp`, for the next job. */
  static #warm: EngineProcess | undefined;
  #answer: WorkerAnswer | undefined;
  /** Settled once the worker has answered, or has gone. */
  readonly #done: Promise<Exit | undefined>;
  #startError: Error | undefined;
  #said = "";
  readonly #exited: Promise<Exit>;

  readonly #worker: ChildProcess;

  private constructor(worker: ChildProcess) {
    this.#worker = worker;
    const answered = new Promise<undefined>((resolve) =>
      worker.once("message", (message: WorkerAnswer) => {
        this.#answer = message;
        resolve(undefined);
      }),
    );
    // What the engine says when it aborts goes to stderr: read, so the pipe
    // never fills, and its end kept for the refusal.
    worker.stderr?.on("data", (chunk: Buffer) => {
      this.#said = (this.#said + chunk.toString()).slice(-KEPT_STDERR_CHARS);
    });
    this.#exited = new Promise((resolve) => {
      worker.once("error", (error) => {
        this.#startError = error;
        resolve({ code: null, signal: null });
      });
      // "close", not "exit": it comes once the IPC channel has delivered
      // everything the worker sent.
      worker.once("close", (code, signal) => resolve({ code, signal }));
    });
    // An answer is all that is needed; a worker that goes without one has
    // its exit read.
    this.#done = Promise.race([answered, this.#exited]);
  }

  /**
   * Starts a worker ahead of the first job a command has (its start-up
   * then overlaps the command's own), taken by the next `take`.
   */
  static warmUp(): void {
    EngineProcess.#warm ??= EngineProcess.start();
  }

  /** The worker started ahead, if any is still there, else a new one. */
  static take(): EngineProcess {
    const warm = EngineProcess.#warm;
    EngineProcess.#warm = undefined;
    return warm !== undefined && warm.#worker.connected
      ? warm
      : EngineProcess.start();
  }

  /**
   * Starts the worker as this module runs: compiled, or (in this repository)
   * TypeScript through tsx, which Hardhat registers in its own process only.
   */
  static start(): EngineProcess {
    const typescript = import.meta.url.endsWith(".ts");
    const file = new URL(
      `./compute-worker.${typescript ? "ts" : "js"}`,
      import.meta.url,
    );
    const worker = fork(file, [], {
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      execArgv: typescript ? ["--import", import.meta.resolve("tsx")] : [],
    });
    // An idle worker never keeps a command from ending (a job's timers do
    // while it runs): the process, its channel and its stderr are not
    // waited for; the worker ends when its channel closes.
    worker.unref();
    worker.channel?.unref();
    (worker.stderr as Socket | null)?.unref();
    return new EngineProcess(worker);
  }

  /** Runs `job` in the worker, within its bounds. */
  async run(job: StageJob): Promise<StageComputation> {
    const answer = await this.#answered(job);
    if (!("computation" in answer))
      throw new Error("the engine answered a stage with a check");
    // A stage is the worker's one job: ended once it has answered, so the
    // engine's memory is given back while this process writes the files.
    this.dispose();
    return answer.computation;
  }

  /** Checks policies alone in the worker (see `checkInEngine`), within their bounds. */
  async check(job: CheckJob): Promise<CheckOutcome[]> {
    const answer = await this.#answered(job);
    if (!("checks" in answer))
      throw new Error("the engine answered a check with a stage");
    return answer.checks;
  }

  /** The worker's answer to `job`, or its refusal thrown, within the job's bounds. */
  async #answered(
    job: StageJob | CheckJob,
  ): Promise<Extract<WorkerAnswer, { ok: true }>> {
    let stopped: Stop;
    const stop = (why: Stop) => {
      stopped ??= why;
      this.#worker.kill("SIGKILL");
    };
    // A check's time bound holds for each of its policies.
    const jobs = job.kind === "check" ? job.policies.length : 1;
    const timer = setTimeout(
      () => stop("time"),
      job.bounds.timeoutSeconds * 1000 * jobs + GRACE_MS,
    );
    const watch = this.#watchMemory(job, () => stop("memory"));
    try {
      if (this.#worker.connected) this.#worker.send(job);
      await this.#done;
      if (this.#answer?.ok === true) return this.#answer;
      throw this.#failure(job, stopped, await this.#exited);
    } finally {
      clearTimeout(timer);
      clearInterval(watch);
    }
  }

  /** Ends the worker if it is still there (a job never sent, say). */
  dispose(): void {
    if (this.#worker.exitCode === null && this.#worker.signalCode === null)
      this.#worker.kill("SIGKILL");
  }

  /**
   * Ends the worker and waits until it has: nothing of it holds the index
   * then. Waited for with the worker counted again in the event loop, which
   * it is not while idle (see `start`).
   */
  async disposed(): Promise<void> {
    const worker = this.#worker;
    if (worker.exitCode !== null || worker.signalCode !== null) return;
    const exited = new Promise<void>((resolve) =>
      worker.once("exit", () => resolve()),
    );
    worker.ref();
    worker.kill("SIGKILL");
    await exited;
  }

  /**
   * Reads the worker's resident memory (Linux's /proc) and calls `exceeded`
   * once it holds more than the job's bound allows. Where there is no /proc,
   * the engine's own memory limit is the bound.
   */
  #watchMemory(job: StageJob | CheckJob, exceeded: () => void): NodeJS.Timeout {
    const limitKb = (job.bounds.memoryMb + PROCESS_OVERHEAD_MB) * 1024;
    return setInterval(() => {
      readFile(`/proc/${this.#worker.pid}/status`, "utf8").then(
        (status) => {
          const rss = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
          if (rss !== undefined && Number(rss) > limitKb) exceeded();
        },
        () => undefined,
      );
    }, MEMORY_POLL_MS);
  }

  /** The worker's refusal as it said it, or why it stopped without one. */
  #failure(job: StageJob | CheckJob, stopped: Stop, exit: Exit): VipError {
    const file =
      job.kind === "check"
        ? job.policies.map((policy) => policy.file).join(", ")
        : job.policy.file;
    if (stopped === "time")
      return new VipError(ERRORS.SCORING.RUN.POLICY_TIMEOUT_KILLED, {
        file,
        seconds: job.bounds.timeoutSeconds,
      });
    if (stopped === "memory")
      return new VipError(ERRORS.SCORING.RUN.POLICY_MEMORY_KILLED, {
        file,
        memoryMb: job.bounds.memoryMb,
        overheadMb: PROCESS_OVERHEAD_MB,
      });
    const answer = this.#answer;
    if (answer?.ok === false) return rebuiltRefusal(file, answer.error);
    if (this.#startError !== undefined)
      return new VipError(ERRORS.SCORING.RUN.ENGINE_NOT_STARTED, {
        file,
        reason: safeText(this.#startError.message),
      });
    const last = this.#said.trim().split("\n").at(-1) ?? "";
    return new VipError(ERRORS.SCORING.RUN.ENGINE_STOPPED, {
      file,
      how: exit.signal ?? `exit ${exit.code}`,
      last: last === "" ? "" : `: ${safeText(last)}`,
    });
  }
}

/**
 * The error the engine's process refused a job (or a policy) with, made
 * again here: the same code and message, on this side. An error without a
 * known descriptor is the engine's failure, its words kept.
 */
export function rebuiltRefusal(file: string, refusal: WireError): VipError {
  return (
    vipErrorFromWire(refusal) ??
    new VipError(ERRORS.SCORING.RUN.ENGINE_FAILED, {
      file,
      reason: safeText(refusal.message),
    })
  );
}
