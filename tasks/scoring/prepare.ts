import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { selectedNetwork } from "../network/connect.js";
import { field, type Output } from "../output.js";
import { checkPolicies } from "./check-policy.js";
import type { ActivityContext } from "./context.js";
import { EngineProcess } from "./engine-process.js";
import { type PolicyBoundOptions, policyBounds } from "./policy-bounds.js";
import { policyForTarget, sayPolicy } from "./policy-choice.js";
import type { PolicyBounds } from "./sandbox.js";
import { scorePolicies, type StageScores } from "./score-stage.js";
import { scoreTargetOf, type ScoreTargetOptions } from "./target-option.js";
import type { ScoreTarget } from "./target.js";
import { loadPolicies } from "../policy/load.js";
import type { Policy } from "../policy/parse.js";

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
 * A scoring command's options, checked before anything is read: what it
 * runs over (`--stage` or `--window`) and the policy's bounds. The engine
 * that will check the policies starts now, while their files are read.
 */
export function scoringOptions(
  hre: HardhatRuntimeEnvironment,
  task: string,
  args: ScoreTargetOptions & PolicyBoundOptions,
): { target: ScoreTarget; bounds: PolicyBounds } {
  const target = scoreTargetOf(task, args);
  const bounds = policyBounds(args, selectedNetwork(hre).config);
  EngineProcess.warmUp();
  return { target, bounds };
}

/**
 * Admits every one of `policies` in the engine (parse tree, binding,
 * exactness; one engine process for all), refusing with the first refusal,
 * in their order, before anything else is read. The computation's engine
 * then starts, while the command connects and indexes: its start-up costs
 * no time of its own.
 */
export async function admitBeforeReading(
  policies: Policy[],
  bounds: PolicyBounds,
): Promise<void> {
  for (const result of await checkPolicies(policies, bounds))
    if ("refused" in result) throw result.refused;
  EngineProcess.warmUp();
}

/**
 * Everything a scoring command can check before it connects to anything:
 * its options, the policy file's header, and the policy's admission, so a
 * policy that cannot run is refused naming its file and line, and no node,
 * base chain or index has been touched.
 */
export async function prepareScoring(
  hre: HardhatRuntimeEnvironment,
  task: string,
  args: ScoreTargetOptions & PolicyBoundOptions & { policy: string },
): Promise<PreparedScoring> {
  const { target, bounds } = scoringOptions(hre, task, args);
  const policy = policyForTarget(await loadPolicies(args.policy), target);
  await admitBeforeReading([policy], bounds);
  return { target, policyPath: args.policy, policy, bounds };
}

/** The prepared target's scores under its policy (see `scorePolicies`). */
export async function scorePrepared(
  ctx: ActivityContext,
  prepared: PreparedScoring,
  options: { onChain?: () => Promise<string[]> } = {},
): Promise<StageScores> {
  sayPolicy(ctx.out, "policy", prepared.policy);
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
