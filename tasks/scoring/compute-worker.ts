import { errorOnWire, type WireError } from "../error-wire.js";
import {
  type CheckJob,
  checkInEngine,
  type CheckOutcome,
} from "./check-engine.js";
import {
  computeInEngine,
  type StageComputation,
  type StageJob,
} from "./compute-engine.js";

/**
 * The process a policy runs in (see `computeStage`): takes one job (a stage
 * to compute, or a policy to check alone), answers its result or its
 * refusal, and exits. Whatever the engine
 * does to this process (an abort, the memory it takes, a query that cannot
 * be interrupted) ends here, not in the command that started it.
 */
export type WorkerAnswer =
  | {
      ok: true;
      computation: StageComputation;
    }
  | {
      ok: true;
      checks: CheckOutcome[];
    }
  | {
      ok: false;
      /** A refusal (a VipError) is rebuilt from it, code and all. */
      error: WireError;
    };

process.once("message", (job: StageJob | CheckJob) => {
  const done: Promise<WorkerAnswer> =
    job.kind === "check"
      ? checkInEngine(job).then((checks) => ({ ok: true, checks }))
      : computeInEngine(job).then((computation) => ({ ok: true, computation }));
  void done.then(answer, (error: unknown) =>
    answer({ ok: false, error: errorOnWire(error) }),
  );
});

// The command that started this process is gone: nothing is waiting.
process.once("disconnect", () => process.exit(0));

function answer(value: WorkerAnswer): void {
  process.send?.(value, undefined, undefined, () => process.exit(0));
}
