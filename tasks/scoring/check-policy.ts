import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import type { VipError } from "../errors.js";
import { enginePolicy, type Policy } from "../policy/parse.js";
import type { PolicyCheck } from "./check-engine.js";
import { EngineProcess, rebuiltRefusal } from "./engine-process.js";
import { DEFAULT_POLICY_BOUNDS, type PolicyBounds } from "./sandbox.js";

export type { PolicyCheck } from "./check-engine.js";

/** A policy's check: what it found, or why the policy cannot run. */
export type CheckResult =
  | { policy: Policy; check: PolicyCheck }
  | { policy: Policy; refused: VipError };

/**
 * Admits parsed policies with no index, no node and no base chain (see
 * `checkInEngine`), all in one engine process of their own and each within
 * its bounds, so a policy that cannot run is refused, with its file and
 * line, before a command connects to anything.
 */
export async function checkPolicies(
  policies: Policy[],
  bounds: PolicyBounds = DEFAULT_POLICY_BOUNDS,
  engine: EngineProcess = EngineProcess.take(),
): Promise<CheckResult[]> {
  // The engine's temporary files would go here; a check writes none.
  const tempDir = await mkdtemp(path.join(tmpdir(), "vip-policy-check-"));
  try {
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
