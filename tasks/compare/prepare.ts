import { stat } from "node:fs/promises";

import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { ERRORS } from "../error-catalog.js";
import { isVipError, VipError } from "../errors.js";
import { loadPolicies } from "../policy/load.js";
import type { Policy } from "../policy/parse.js";
import type { PolicyBoundOptions } from "../scoring/policy-bounds.js";
import { policyForTarget } from "../scoring/policy-choice.js";
import { admitBeforeReading, scoringOptions } from "../scoring/prepare.js";
import type { PolicyBounds } from "../scoring/sandbox.js";
import type { ScoreTargetOptions } from "../scoring/target-option.js";
import type { ScoreTarget } from "../scoring/target.js";

export interface CompareOptions extends ScoreTargetOptions, PolicyBoundOptions {
  /** The current policy: a file or a folder. */
  policy: string;
  /** The proposed policy: a file (whatever its @from-stage) or a folder. */
  with: string;
}

/** What `scores:compare` knows before it reads anything but its files. */
export interface PreparedComparison {
  target: ScoreTarget;
  current: Policy;
  proposed: Policy;
  bounds: PolicyBounds;
}

/**
 * Everything `scores:compare` can check before it connects to anything: its
 * options, both policies' headers, and both policies' admission in the
 * engine (the current policy's refusal first), so either policy that cannot
 * run is refused, naming its file and line, before the node, the base chain
 * or the index is touched.
 */
export async function prepareComparison(
  hre: HardhatRuntimeEnvironment,
  options: CompareOptions,
): Promise<PreparedComparison> {
  const { target, bounds } = scoringOptions(hre, "scores:compare", options);
  const current = policyForTarget(await loadPolicies(options.policy), target);
  const proposed = await proposedPolicy(options.with, target);
  await admitBeforeReading([current, proposed], bounds);
  return { target, current, proposed, bounds };
}

/**
 * The proposed policy: `--with`'s file whatever its @from-stage (a change
 * usually starts at a later stage than the one it is previewed on), or the
 * policy a folder holds for the target, picked as `--policy`'s is.
 */
async function proposedPolicy(
  path: string,
  target: ScoreTarget,
): Promise<Policy> {
  const policies = await loadPolicies(path);
  const [only] = policies;
  if (only !== undefined && !(await isFolder(path))) return only;
  try {
    return policyForTarget(policies, target);
  } catch (error) {
    if (!isVipError(error, ERRORS.SCORING.POLICY_FILES.NO_POLICY_FOR_STAGE))
      throw error;
    throw new VipError(ERRORS.REPORT.COMPARE.COMPARE_NO_PROPOSED_POLICY, {
      path,
      stage: error.params.stage,
      earliest: error.params.earliest,
    });
  }
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path)).isDirectory();
}
