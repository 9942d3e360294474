import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { selectedNetwork } from "../network/connect.js";
import { field, type Output } from "../output.js";
import { loadPolicies } from "../policy/load.js";
import type { Policy } from "../policy/parse.js";
import { checkPolicy } from "./check-policy.js";
import type { ActivityContext } from "./context.js";
import { EngineProcess } from "./engine-process.js";
import { type PolicyBoundOptions, policyBounds } from "./policy-bounds.js";
import type { PolicyBounds } from "./sandbox.js";
import {
  policyForTarget,
  sayPolicy,
  scorePolicies,
  type StageScores,
} from "./score-stage.js";
import type { ScoreTarget } from "./target.js";
import { scoreTargetOf, type ScoreTargetOptions } from "./target-option.js";

/** What a scoring command knows before it reads anything but its files. */
export interface PreparedScoring {
  target: ScoreTarget;
  /** What `--policy` named. */
  policyPath: string;
  /** The policy of `--policy` the target runs, admitted. */
  policy: Policy;
  bounds: PolicyBounds;
}

/**
 * Everything a scoring command can check before it connects to anything:
 * its options (`--stage` or `--window`), the policy file's header, and the
 * policy's admission in the engine (parse tree, binding, exactness), so a
 * policy that cannot run is refused naming its file and line, and no node,
 * base chain or index has been touched.
 */
export async function prepareScoring(
  hre: HardhatRuntimeEnvironment,
  task: string,
  args: ScoreTargetOptions & PolicyBoundOptions & { policy: string },
): Promise<PreparedScoring> {
  const target = scoreTargetOf(task, args);
  // The check's engine starts while the policy files are read.
  EngineProcess.warmUp();
  const policy = policyForTarget(await loadPolicies(args.policy), target);
  const bounds = policyBounds(args, selectedNetwork(hre).config);
  await checkPolicy(policy, bounds);
  // The computation's engine starts now, while the command connects and
  // indexes: its start-up costs no time of its own.
  EngineProcess.warmUp();
  return { target, policyPath: args.policy, policy, bounds };
}

/** The prepared target's scores under its policy (see `scorePolicies`). */
export async function scorePrepared(
  ctx: ActivityContext,
  prepared: PreparedScoring,
  options: { onChain?: () => Promise<string[]> } = {},
): Promise<StageScores> {
  sayPolicy(ctx, prepared.policy);
  const [scores] = await scorePolicies(
    ctx,
    [prepared.policy],
    prepared.target,
    { ...options, policyPath: prepared.policyPath },
  );
  return scores as StageScores;
}

/** Says that a trial's files are what they are. */
export function sayTrial(out: Output, prepared: PreparedScoring): void {
  if (prepared.target.kind === "trial")
    out.line(
      field(
        "trial",
        "scores of a window of your choosing: never pushed nor finalized (scores:update refuses them)",
      ),
    );
}
