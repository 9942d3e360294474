import { readFile } from "node:fs/promises";

import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { readOnlyContract } from "../../contract/context.js";
import { stageAddresses } from "../../contract/stage-pages.js";
import { ERRORS } from "../../error-catalog.js";
import { VipError } from "../../errors.js";
import { auditStage } from "../../scoring/audit.js";
import { activityContext } from "../../scoring/context.js";
import type { PolicyBoundOptions } from "../../scoring/policy-bounds.js";
import { prepareScoring, scorePrepared } from "../../scoring/prepare.js";
import type { ScoreTargetOptions } from "../../scoring/target-option.js";
import { windowLabel } from "../../scoring/target.js";

interface ScoresAuditArgs extends PolicyBoundOptions, ScoreTargetOptions {
  dataDir?: string;
  policy: string;
  manifest?: string;
  contract?: string;
  deploymentId?: string;
}

const action: NewTaskActionFunction<ScoresAuditArgs> = async (args, hre) => {
  // The options, the manifest and the policy are checked before anything
  // is read.
  const prepared = await prepareScoring(hre, "scores:audit", args);
  const { target } = prepared;
  const stage = target.kind === "stage" ? target.stage : target.stageNumber;
  if (stage === null && args.manifest === undefined)
    throw new VipError(ERRORS.SCORING.RESULTS.AUDIT_NOTHING_TO_COMPARE);
  const manifest =
    args.manifest === undefined ? undefined : await readManifest(args.manifest);
  const { ctx } = await activityContext(hre, {
    dataDir: args.dataDir,
    bounds: args,
    needsBaseChain: target.kind === "stage",
  });
  const score = stage === null ? undefined : await readOnlyContract(hre, args);
  // As the autopilot writes a stage's final file: an address on chain that
  // the policy does not score is listed with 0, so a published manifest
  // compares whole. A trial's file never lists them (scores:compute --window
  // reads no contract): its manifest compares as it was written.
  const scores = await scorePrepared(ctx, prepared, {
    ...(score === undefined || target.kind === "trial"
      ? {}
      : { onChain: () => stageAddresses(score, target.stage) }),
  });
  const differences = await auditStage(
    score,
    scores,
    ctx.out,
    manifest,
    args.manifest,
  );
  if (differences > 0)
    throw new VipError(ERRORS.SCORING.RESULTS.AUDIT_DIFFERENCES, {
      what: windowLabel(scores.window, scores.trial),
      count: differences,
      against: [
        ...(score === undefined ? [] : ["the contract"]),
        ...(manifest === undefined ? [] : ["the manifest"]),
      ].join(" or "),
    });
};

async function readManifest(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new VipError(ERRORS.SCORING.RESULTS.MANIFEST_UNREADABLE, {
      file,
      reason: error instanceof Error ? error.message : String(error),
    });
  }
}

export default action;
