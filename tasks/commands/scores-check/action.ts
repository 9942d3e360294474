import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { ERRORS } from "../../error-catalog.js";
import { VipError } from "../../errors.js";
import { selectedNetwork } from "../../network/connect.js";
import { consoleOutput } from "../../output.js";
import { loadPolicies } from "../../policy/load.js";
import type { Policy } from "../../policy/parse.js";
import { checkPolicies } from "../../scoring/check-policy.js";
import { policyLines } from "../../scoring/describe-policy.js";
import { EngineProcess } from "../../scoring/engine-process.js";
import {
  type PolicyBoundOptions,
  policyBounds,
} from "../../scoring/policy-bounds.js";

interface ScoresCheckArgs extends PolicyBoundOptions {
  policy: string;
}

/** The last stage each policy is in force for: the stage before the next one starts. */
function lastStages(policies: Policy[]): Map<Policy, bigint | undefined> {
  const starts = policies
    .map((p) => p.fromStage)
    .sort((a, b) => (a < b ? -1 : 1));
  return new Map(
    policies.map((policy) => {
      const next = starts.find((start) => start > policy.fromStage);
      return [policy, next === undefined ? undefined : next - 1n];
    }),
  );
}

const action: NewTaskActionFunction<ScoresCheckArgs> = async (args, hre) => {
  EngineProcess.warmUp();
  const policies = await loadPolicies(args.policy);
  const bounds = policyBounds(args, selectedNetwork(hre).config);
  const until = lastStages(policies);
  const results = await checkPolicies(policies, bounds);
  for (const [i, result] of results.entries()) {
    if (i > 0) consoleOutput.line("");
    if ("refused" in result)
      consoleOutput.line(
        `refused  ${result.policy.file}: ${result.refused.message}`,
      );
    else
      for (const line of policyLines(
        result.policy,
        until.get(result.policy),
        result.check,
      ))
        consoleOutput.line(line);
  }
  const refused = results.filter((result) => "refused" in result).length;
  if (refused > 0)
    throw new VipError(ERRORS.SCORING.RESULTS.POLICIES_REFUSED, {
      count: refused,
      total: policies.length,
    });
};

export default action;
