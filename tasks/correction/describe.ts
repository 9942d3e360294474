import {
  counted,
  field,
  formatDuration,
  formatNumber,
  formatUnixTime as iso,
  type Output,
} from "../output.js";
import {
  type ChallengeWindow,
  type CorrectionPlan,
  largestChanges,
  type StagePlan,
} from "./plan.js";
import type { Difference } from "../scores/read-back.js";

/** Changes shown for each stage: the largest. */
const SHOWN_CHANGES = 5;

/**
 * The plan in words, before anything is sent: what changes in each stage,
 * the new contract and what is replayed to it, each wrong stage's challenge
 * window and whether a proposal passes in time, and which proposals are
 * written.
 */
export function describePlan(plan: CorrectionPlan, out: Output): void {
  const last = plan.stages[plan.stages.length - 1]?.stage ?? plan.first;
  out.line(
    field(
      "stage to correct",
      `${plan.first} (finalized on ${plan.oldContract}; its open stage is ${plan.openStage})`,
    ),
  );
  for (const stage of plan.stages) describeStage(stage, out);
  out.line(
    field(
      "new contract",
      `a VipScore from stage ${plan.first} (Ignition deployment ${plan.deploymentId}); ` +
        `${plan.first === last ? `stage ${last}` : `stages ${plan.first}–${last}`} pushed, proved and finalized on it in order; ` +
        `stage ${plan.openStage} then open there, and every task uses it (the old contract is refused for writes)`,
    ),
  );
  for (const window of plan.windows) describeWindow(window, plan, out);
  out.line(field("proposal", describeChoice(plan)));
  for (const warning of plan.warnings) out.warn(warning);
}

function describeStage(stage: StagePlan, out: Output): void {
  const newTotal = stage.file.table.totalScore();
  if (stage.changes.length === 0) {
    out.line(
      field(
        `stage ${stage.stage}`,
        `unchanged: ${formatNumber(stage.file.table.length)} score(s), total ${formatNumber(newTotal)}, replayed as it is`,
      ),
    );
    return;
  }
  const delta = newTotal - stage.oldTotal;
  out.line(
    field(
      `stage ${stage.stage}`,
      `${counted(stage.changes.length, "address changes", "addresses change")}; total ${formatNumber(stage.oldTotal)} → ` +
        `${formatNumber(newTotal)} (${delta >= 0n ? "+" : ""}${formatNumber(delta)}); from ${stage.file.path}`,
    ),
  );
  for (const change of largestChanges(stage, SHOWN_CHANGES))
    out.line(field("", describeChange(change)));
}

function describeChange(change: Difference): string {
  const old = change.actual ?? 0n;
  const delta = change.expected - old;
  return `${change.address}: ${formatNumber(old)} → ${formatNumber(change.expected)} (${delta >= 0n ? "+" : ""}${formatNumber(delta)})`;
}

function describeWindow(
  window: ChallengeWindow,
  plan: CorrectionPlan,
  out: Output,
): void {
  const label = `challenge ${window.stage}`;
  if (window.state === "no-snapshot") {
    out.line(
      field(
        label,
        "no snapshot yet: the agent has not taken the stage, so there is nothing to challenge " +
          "yet. It takes it from the old contract until a proposal executes, so no proposal is " +
          "written now: once the snapshot is taken, run stage:correct again (the replay is done; " +
          "it writes the proposal with the challenge)",
      ),
    );
    return;
  }
  const deadline = window.deadline ?? 0n;
  if (window.state === "closed") {
    out.line(
      field(
        label,
        `past its window (it closed at ${iso(deadline)}): only later stages can still be right`,
      ),
    );
    return;
  }
  const vote = `${plan.expedited ? "an expedited" : "a"} proposal (${formatDuration(plan.votingSeconds)} of voting)`;
  const left = formatDuration(deadline - plan.chainTime);
  out.line(
    field(
      label,
      `snapshot taken ${iso(window.createTime ?? 0n)}; the window closes at ${iso(deadline)} (in ${left}): ` +
        (window.passesInTime
          ? `${vote} submitted now ends its vote in time${window.tight ? ", with little to spare" : ""}; ` +
            `submit it before ${iso(deadline - plan.votingSeconds)}`
          : `${vote} submitted now ends its vote too late`),
    ),
  );
}

function describeChoice(plan: CorrectionPlan): string {
  switch (plan.choice) {
    case "full":
      return "the contract update and the challenge(s), in one proposal";
    case "full-and-update-only":
      return (
        "the contract update and the challenge(s), and a second proposal with the update alone: " +
        "the messages execute all or nothing, and a challenge that arrives after its window " +
        "would sink the update with it"
      );
    case "update-only":
      return plan.windows.some((w) => w.state === "no-snapshot")
        ? "none yet: a wrong stage has no snapshot yet (see above)"
        : "the contract update alone: no wrong stage can be challenged in time any more";
  }
}
