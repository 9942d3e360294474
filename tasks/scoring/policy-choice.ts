import { field, type Output, safeText } from "../output.js";
import type { ScoreTarget } from "./target.js";
import { policyForStage } from "../policy/load.js";
import type { Policy } from "../policy/parse.js";

/**
 * The policy of `policyPath` that a target runs: a stage's, the one in force
 * for it; a trial's, the one in force for its `--stage-number`, else the
 * latest (the one in force now).
 */
export function policyForTarget(
  policies: Policy[],
  target: ScoreTarget,
): Policy {
  if (target.kind === "stage") return policyForStage(policies, target.stage);
  if (target.stageNumber !== null)
    return policyForStage(policies, target.stageNumber);
  return policies.reduce((latest, policy) =>
    policy.fromStage > latest.fromStage ? policy : latest,
  );
}

/**
 * Says which policy runs as `role` (`policy`, or `current` and `proposed`),
 * and where it comes from: its name and file printed safe.
 */
export function sayPolicy(out: Output, role: string, policy: Policy): void {
  out.line(
    field(
      role,
      `${safeText(policy.name, 80)} (${safeText(policy.file, 200)}, from stage ` +
        `${policy.fromStage}, sha256 ${policy.sha256.slice(0, 16)}…)`,
    ),
  );
}
