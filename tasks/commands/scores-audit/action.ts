import { readFile } from "node:fs/promises";

import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { activityContext } from "../../scoring/context.js";
import { EngineProcess } from "../../scoring/engine-process.js";
import type { PolicyBoundOptions } from "../../scoring/policy-bounds.js";
import { auditStage } from "../../scoring/audit.js";
import { scoreStage } from "../../scoring/score-stage.js";
import { readOnlyContract } from "../../contract/context.js";
import { parseStage } from "../../contract/preflight.js";
import { ERRORS } from "../../error-catalog.js";
import { VipError } from "../../errors.js";
import { loadPolicies } from "../../policy/load.js";
import { stageAddresses } from "../../contract/stage-pages.js";

interface ScoresAuditArgs extends PolicyBoundOptions {
  dataDir?: string;
  policy: string;
  stage: string;
  manifest?: string;
  contract?: string;
  deploymentId?: string;
}

const action: NewTaskActionFunction<ScoresAuditArgs> = async (args, hre) => {
  // The policy's engine starts now, while this command connects and
  // indexes: its start-up costs no time of its own.
  EngineProcess.warmUp();
  const stage = parseStage(args.stage);
  await loadPolicies(args.policy);
  let manifest: unknown;
  if (args.manifest !== undefined) {
    try {
      manifest = JSON.parse(await readFile(args.manifest, "utf8"));
    } catch (error) {
      throw new VipError(ERRORS.SCORING.MANIFEST_UNREADABLE, {
        file: args.manifest,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
  const { ctx } = await activityContext(hre, {
    dataDir: args.dataDir,
    bounds: args,
  });
  const score = await readOnlyContract(hre, args);
  // As the autopilot writes a final file: an address on chain that the policy
  // does not score is listed with 0, so a published manifest compares whole.
  const scores = await scoreStage(ctx, args.policy, stage, {
    onChain: () => stageAddresses(score, stage),
  });
  const differences = await auditStage(
    score,
    scores,
    ctx.out,
    manifest,
    args.manifest,
  );
  if (differences > 0)
    throw new VipError(ERRORS.SCORING.AUDIT_DIFFERENCES, {
      stage,
      count: differences,
      against:
        args.manifest === undefined
          ? "the contract"
          : "the contract or the manifest",
    });
};

export default action;
