import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { enginePolicy, type Policy } from "../policy/parse.js";
import type { PolicyCheck } from "./check-engine.js";
import { EngineProcess } from "./engine-process.js";
import { DEFAULT_POLICY_BOUNDS, type PolicyBounds } from "./sandbox.js";

export type { PolicyCheck } from "./check-engine.js";

/**
 * Admits a parsed policy with no index, no node and no base chain (see
 * `checkInEngine`), in the engine's own process and within its bounds, so a
 * policy that cannot run is refused, with its file and line, before a
 * command connects to anything.
 */
export async function checkPolicy(
  policy: Policy,
  bounds: PolicyBounds = DEFAULT_POLICY_BOUNDS,
  engine: EngineProcess = EngineProcess.take(),
): Promise<PolicyCheck> {
  // The engine's temporary files would go here; a check writes none.
  const tempDir = await mkdtemp(path.join(tmpdir(), "vip-policy-check-"));
  try {
    return await engine.check({
      kind: "check",
      policy: enginePolicy(policy),
      bounds,
      tempDir,
    });
  } finally {
    engine.dispose();
    await rm(tempDir, { recursive: true, force: true });
  }
}
