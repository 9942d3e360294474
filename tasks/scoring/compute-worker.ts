import { type ErrorParam, isVipError } from "../errors.js";
import {
  type CheckJob,
  checkInEngine,
  type CheckOutcome,
} from "./check-engine.js";
import {
  computeInEngine,
  type EngineComputation,
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
      computation: EngineComputation;
    }
  | {
      ok: true;
      checks: CheckOutcome[];
    }
  | {
      ok: false;
      message: string;
      /**
       * A refusal (a VipError): its descriptor's number and its values, from
       * which the command rebuilds the same error, code and all.
       */
      refusal?: { number: number; params: Record<string, ErrorParam> };
    };

process.once("message", (job: StageJob | CheckJob) => {
  const done: Promise<WorkerAnswer> =
    job.kind === "check"
      ? checkInEngine(job).then((checks) => ({ ok: true, checks }))
      : computeInEngine(job).then((computation) => ({ ok: true, computation }));
  void done.then(answer, (error: unknown) =>
    answer({
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      ...(isVipError(error)
        ? {
            refusal: {
              number: error.descriptor.number,
              params: { ...error.params },
            },
          }
        : {}),
    }),
  );
});

// The command that started this process is gone: nothing is waiting.
process.once("disconnect", () => process.exit(0));

function answer(value: WorkerAnswer): void {
  process.send?.(value, undefined, undefined, () => process.exit(0));
}
