import type { OpenStageTiming } from "../program/stage-timing.js";
import type { Proof } from "../scores/proof.js";

/**
 * How a host runs. The primary does every stage's work. A standby runs the
 * same autopilot on a second host with its own key, sending nothing until a
 * stage is `afterSeconds` past its end on the base chain's clock and still
 * not finalized; then it does what the primary would have.
 */
export type Role =
  { kind: "primary" } | { kind: "standby"; afterSeconds: bigint };

/** The due stage's final file, as this host knows it in this pass. */
type FinalState =
  /** Not read or computed yet in this pass. */
  | { kind: "unknown" }
  /** Without --policy: no `stage-N.final.csv` in the scores folder. */
  | { kind: "missing" }
  /** It failed validation (without --policy), or could not be computed. */
  | { kind: "failed" }
  /** With --policy: the rollup has no block at or after the end yet. */
  | { kind: "waiting" }
  | { kind: "ready"; sha256: string };

/** What this host knows of the contract's open stage, in this pass. */
export interface StageWork {
  stage: bigint;
  /** With --policy: when this host last computed the live scores (local ms). */
  liveComputedAtMs?: number;
  /** The live file is not the one this host last pushed. */
  liveChanged: boolean;
  final: FinalState;
  /**
   * Whether another host's final scores on chain differ from this host's
   * file; undefined until the stage's writes are read in this pass.
   */
  disagreement?: "none" | "found";
  proof?: Proof;
  /** The stage's write count now; undefined on a contract without the fence. */
  writeCount?: bigint;
  /** Without the fence: whether the stage was written after the proof's block. */
  writtenSinceProof?: boolean;
  /** The standby announced that it takes this stage over. */
  tookOver: boolean;
  /** A due step failed in this pass (its alert is raised): nothing more now. */
  blocked: boolean;
}

/** Everything a pass decides from, read before; nothing is read inside. */
export interface PassView {
  role: Role;
  timing: OpenStageTiming;
  /** The base chain's time (its latest block), unix seconds. */
  chainTime: bigint;
  /** The local clock (ms), for the live computation's interval only. */
  nowMs: number;
  /** With --policy: how often a running stage's live scores are computed. */
  computeIntervalSeconds?: number;
  /** No live push starts within this many seconds of a stage's end. */
  liveMarginSeconds: bigint;
  /** A stage that was finalized since the last pass and not reported yet. */
  closedStage?: bigint;
  work: StageWork;
}

export type Step =
  /** Say how the closed stage was finalized, and by whom. */
  | { kind: "report-close"; stage: bigint }
  | { kind: "compute-live" }
  | { kind: "push-live" }
  /** Nothing to do before the next poll. */
  | { kind: "wait" }
  /** A standby with nothing to send: it acts from `until` on. */
  | { kind: "stand-by"; until: bigint }
  | { kind: "compute-final" }
  | { kind: "read-final" }
  /** A standby past its time: it announces that it takes the stage over. */
  | { kind: "take-over" }
  /** Read the stage's writes: another host's final scores must not be overwritten. */
  | { kind: "check-writes" }
  /** Push the final file and prove the chain holds it (again: the proof went stale). */
  | { kind: "push-final"; again: boolean }
  /** Finalize, fenced by the proof's write count where the contract has one. */
  | { kind: "finalize"; writeCount?: bigint }
  /** Something stands in the way (its alert is raised): nothing more now. */
  | { kind: "blocked" };

export type StepKind = Step["kind"];

/**
 * Times each step may run in one pass: a push or a finalization may need a
 * second go when another write lands in between (the fence refuses the first,
 * and with --policy the final file is computed again: the write may have added
 * an address); a third in the same pass means something keeps writing the
 * stage.
 */
const MOST_PER_PASS: Partial<Record<StepKind, number>> = {
  "compute-live": 1,
  "push-live": 1,
  "compute-final": 2,
  "read-final": 1,
  "check-writes": 5,
  "push-final": 2,
  finalize: 2,
};

/**
 * What the autopilot does next, from what it knows: a pure function of the
 * clocks, the chain's state of the stage, the files, the role and what this
 * host has already done (`tried`: the steps taken in this pass). The pass
 * carries each step out, updates the view, and asks again, until a step
 * says there is nothing more to do now (`wait`, `stand-by`, `blocked`).
 */
export function decideNext(
  view: PassView,
  tried: ReadonlyMap<StepKind, number> = new Map(),
): Step {
  const allowed = (kind: StepKind) =>
    (tried.get(kind) ?? 0) < (MOST_PER_PASS[kind] ?? Infinity);
  if (view.closedStage !== undefined)
    return { kind: "report-close", stage: view.closedStage };
  return view.timing.due ? dueStep(view, allowed) : runningStep(view, allowed);
}

/** While the stage runs: keep its live scores current (the primary pushes them). */
function runningStep(
  view: PassView,
  allowed: (kind: StepKind) => boolean,
): Step {
  const { work, timing, role } = view;
  if (allowed("compute-live") && liveComputeDue(view))
    return { kind: "compute-live" };
  if (role.kind === "standby")
    return { kind: "stand-by", until: timing.endTime + role.afterSeconds };
  if (
    allowed("push-live") &&
    work.liveChanged &&
    timing.secondsLeft > view.liveMarginSeconds
  )
    return { kind: "push-live" };
  return { kind: "wait" };
}

function liveComputeDue(view: PassView): boolean {
  const interval = view.computeIntervalSeconds;
  if (interval === undefined) return false;
  const at = view.work.liveComputedAtMs;
  return at === undefined || view.nowMs - at >= interval * 1000;
}

/** Once the stage has ended on the base chain's clock. */
function dueStep(view: PassView, allowed: (kind: StepKind) => boolean): Step {
  const { work, role, timing } = view;
  if (work.blocked) return { kind: "blocked" };
  if (
    role.kind === "standby" &&
    view.chainTime < timing.endTime + role.afterSeconds
  ) {
    // Ready the final file while standing by, so a takeover does not wait on it.
    if (
      view.computeIntervalSeconds !== undefined &&
      work.final.kind === "unknown" &&
      allowed("compute-final")
    )
      return { kind: "compute-final" };
    return { kind: "stand-by", until: timing.endTime + role.afterSeconds };
  }
  if (role.kind === "standby" && !work.tookOver) return { kind: "take-over" };
  return finalStep(view, allowed);
}

/** The final file, the other host's writes, the push and its proof, the finalization. */
function finalStep(view: PassView, allowed: (kind: StepKind) => boolean): Step {
  const { work } = view;
  if (work.final.kind === "unknown") {
    const kind =
      view.computeIntervalSeconds === undefined
        ? "read-final"
        : "compute-final";
    return allowed(kind) ? { kind } : { kind: "blocked" };
  }
  if (work.final.kind !== "ready") return { kind: "blocked" };
  if (work.disagreement === undefined)
    return allowed("check-writes")
      ? { kind: "check-writes" }
      : { kind: "blocked" };
  if (work.disagreement === "found") return { kind: "blocked" };
  const { proof } = work;
  const sameFile = proof?.final === true && proof.sha256 === work.final.sha256;
  if (proof === undefined || !sameFile || changedSinceProof(work, proof))
    return allowed("push-final")
      ? { kind: "push-final", again: sameFile }
      : { kind: "blocked" };
  if (!allowed("finalize")) return { kind: "blocked" };
  return proof.writeCount === undefined
    ? { kind: "finalize" }
    : { kind: "finalize", writeCount: proof.writeCount };
}

/**
 * Whether the stage may have changed since the proof: its write count moved
 * (fenced contracts), or a write was seen after the proof's block (others);
 * what cannot be told counts as changed.
 */
function changedSinceProof(work: StageWork, proof: Proof): boolean {
  if (work.writeCount !== undefined)
    return (
      proof.writeCount === undefined || proof.writeCount !== work.writeCount
    );
  return work.writtenSinceProof !== false;
}
