import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { isVipError, type VipError } from "../errors.js";
import type { PolicyCheck } from "./check-engine.js";
import { EngineProcess, rebuiltRefusal } from "./engine-process.js";
import { DEFAULT_POLICY_BOUNDS, type PolicyBounds } from "./sandbox.js";
import { enginePolicy, type Policy } from "../policy/parse.js";

export type { PolicyCheck } from "./check-engine.js";

/** A policy's check: what it found, or why the policy cannot run. */
export type CheckResult =
  | { policy: Policy; check: PolicyCheck }
  | { policy: Policy; refused: VipError };

/**
 * Admits parsed policies with no index, no node and no base chain (see
 * `checkInEngine`), all in one engine process of their own and each within
 * its bounds, so a policy that cannot run is refused, with its file and
 * line, before a command connects to anything. When that process itself
 * fails (a policy that makes the engine abort, or runs past its bound where
 * the engine cannot interrupt it), each policy is checked again in a process
 * of its own, so the failure is named with the one policy that caused it.
 */
export async function checkPolicies(
  policies: Policy[],
  bounds: PolicyBounds = DEFAULT_POLICY_BOUNDS,
  engine: EngineProcess = EngineProcess.take(),
): Promise<CheckResult[]> {
  try {
    return await checkedTogether(policies, bounds, engine);
  } catch (error) {
    if (policies.length < 2 || !isVipError(error)) throw error;
    const alone: CheckResult[] = [];
    for (const policy of policies)
      alone.push(
        await checkedTogether([policy], bounds, EngineProcess.start()).then(
          ([result]) => result as CheckResult,
          (failure: unknown) => {
            if (!isVipError(failure)) throw failure;
            return { policy, refused: failure };
          },
        ),
      );
    return alone;
  }
}

/** The policies checked in `engine`, which is ended whatever happens. */
async function checkedTogether(
  policies: Policy[],
  bounds: PolicyBounds,
  engine: EngineProcess,
): Promise<CheckResult[]> {
  let tempDir: string | undefined;
  try {
    // The engine's temporary files would go here; a check writes none.
    tempDir = await mkdtemp(path.join(tmpdir(), "vip-policy-check-"));
    const outcomes = await engine.check({
      kind: "check",
      policies: policies.map(enginePolicy),
      bounds,
      tempDir,
    });
    return policies.map((policy, i) => {
      const outcome = outcomes[i];
      if (outcome !== undefined && "check" in outcome)
        return { policy, check: outcome.check };
      return {
        policy,
        refused: rebuiltRefusal(
          policy.file,
          outcome?.refusal ?? { message: "the engine gave no answer" },
        ),
      };
    });
  } finally {
    engine.dispose();
    if (tempDir !== undefined)
      await rm(tempDir, { recursive: true, force: true });
  }
}

/** One policy's check (see `checkPolicies`); its refusal thrown. */
export async function checkPolicy(
  policy: Policy,
  bounds: PolicyBounds = DEFAULT_POLICY_BOUNDS,
  engine: EngineProcess = EngineProcess.take(),
): Promise<PolicyCheck> {
  const [result] = await checkPolicies([policy], bounds, engine);
  if (result === undefined || "refused" in result)
    throw result?.refused ?? new Error("no check");
  return result.check;
}
