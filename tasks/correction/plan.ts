import type { VipScore } from "../../types/ethers-contracts/index.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { compareWithChain, type Difference } from "../scores/read-back.js";
import type { ScoreFile } from "../scores/read.js";

/** One finalized stage of the old contract, and its corrected final file. */
export interface StagePlan {
  stage: bigint;
  file: ScoreFile;
  /** The old contract's total and address count for the stage. */
  oldTotal: bigint;
  oldCount: bigint;
  /** Where the old contract differs from the corrected file. */
  changes: Difference[];
}

/**
 * What a stage's challenge window allows: `no-snapshot` (the agent has not
 * taken it yet: nothing to challenge; the contract update alone decides
 * which contract it is taken from), `open` until `deadline`, or `closed`.
 * `passesInTime`: an expedited proposal submitted now ends its vote before
 * the deadline; `tight`: with less than `TIGHT_SECONDS` to spare.
 */
export interface ChallengeWindow {
  stage: bigint;
  state: "no-snapshot" | "open" | "closed";
  createTime?: bigint;
  deadline?: bigint;
  passesInTime: boolean;
  tight: boolean;
}

/** Everything the correction will do, read and decided before anything is sent. */
export interface CorrectionPlan {
  /** The stage corrected: the first one replayed. */
  first: bigint;
  /** Every finalized stage from `first` on, each with its corrected file. */
  stages: StagePlan[];
  oldContract: string;
  /** The old contract's open stage: open on the new one after the replay. */
  openStage: bigint;
  /** The new contract's Ignition deployment id. */
  deploymentId: string;
  bridgeId: bigint;
  /** The challenge window of each stage whose scores change. */
  windows: ChallengeWindow[];
  choice: ProposalChoice;
  /** The base chain's time when the plan was made. */
  chainTime: bigint;
  /** The voting period a proposal of the correction gets (expedited when the chain has one). */
  votingSeconds: bigint;
  expedited: boolean;
  /** The deposit such a proposal needs, as coins text. */
  deposit: string;
  /** What the base chain says that the operator should know (said with the plan). */
  warnings: string[];
}

/** Spare time under which a proposal that can pass in time is called tight. */
export const TIGHT_SECONDS = 6n * 3600n;

/**
 * A stage's challenge window from its snapshot's creation time (undefined: no
 * snapshot yet), the program's challenge period, the base chain's time, and
 * the expedited voting period: a pure function.
 */
export function challengeWindow(
  stage: bigint,
  createTime: bigint | undefined,
  challengePeriod: bigint,
  chainTime: bigint,
  votingSeconds: bigint,
): ChallengeWindow {
  if (createTime === undefined)
    return { stage, state: "no-snapshot", passesInTime: false, tight: false };
  const deadline = createTime + challengePeriod;
  // The challenge aborts once `create_time + challenge_period <= now` at the
  // proposal's execution, which follows its vote.
  const executes = chainTime + votingSeconds;
  const open = chainTime < deadline;
  return {
    stage,
    state: open ? "open" : "closed",
    createTime,
    deadline,
    passesInTime: open && executes < deadline,
    tight: open && executes < deadline && deadline - executes < TIGHT_SECONDS,
  };
}

/**
 * Which proposal files the correction writes: `full` (the contract update and
 * a challenge of each wrong stage that can still be challenged in time),
 * `full-and-update-only` (also a proposal with the update alone, when a
 * challenge's deadline is near: the messages execute all or nothing, so a
 * challenge arriving late would sink the update with it), or `update-only`
 * (no wrong stage can be challenged in time any more: only later stages can
 * still be right).
 */
export type ProposalChoice = "full" | "full-and-update-only" | "update-only";

export function proposalChoice(windows: ChallengeWindow[]): ProposalChoice {
  const challenged = windows.filter((w) => w.passesInTime);
  if (challenged.length === 0) return "update-only";
  return challenged.some((w) => w.tight) ? "full-and-update-only" : "full";
}

/** The stages whose snapshots the full proposal challenges. */
export function challengedStages(windows: ChallengeWindow[]): bigint[] {
  return windows.filter((w) => w.passesInTime).map((w) => w.stage);
}

/**
 * Each finalized stage from `first` on, beside its corrected file: the old
 * contract's total and count, and where it differs (read back address by
 * address). Refuses a first stage that is still open (scores:update corrects
 * it), a first stage the chain already holds exactly (nothing to correct),
 * and an empty corrected file for a stage that had scores (unless
 * `allowEmpty`).
 */
export async function planStages(
  old: VipScore,
  first: bigint,
  files: ScoreFile[],
  allowEmpty: boolean,
): Promise<StagePlan[]> {
  const plans: StagePlan[] = [];
  for (const [i, file] of files.entries()) {
    const stage = first + BigInt(i);
    const [record, oldCount] = await Promise.all([
      old.stages(stage),
      old.scoreCount(stage),
    ]);
    if (file.table.length === 0 && oldCount > 0n && !allowEmpty)
      throw new VipError(ERRORS.AUTOPILOT.CORRECTION.CORRECTION_EMPTY, {
        stage,
        file: file.path,
        count: oldCount,
      });
    plans.push({
      stage,
      file,
      oldTotal: record.totalScore,
      oldCount,
      changes: await compareWithChain(old, stage, file.table),
    });
  }
  const firstPlan = plans[0];
  if (firstPlan !== undefined && firstPlan.changes.length === 0)
    throw new VipError(
      ERRORS.AUTOPILOT.CORRECTION.CORRECTION_NOTHING_TO_CORRECT,
      {
        stage: first,
        file: firstPlan.file.path,
      },
    );
  return plans;
}

/** The largest changes of a stage, by how much each score moves. */
export function largestChanges(plan: StagePlan, count: number): Difference[] {
  const size = (d: Difference) => {
    const delta = d.expected - (d.actual ?? 0n);
    return delta < 0n ? -delta : delta;
  };
  return [...plan.changes]
    .sort((a, b) => (size(b) > size(a) ? 1 : size(b) < size(a) ? -1 : 0))
    .slice(0, count);
}
