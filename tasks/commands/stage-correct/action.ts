import path from "node:path";

import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { planCorrection, runCorrection } from "../../correction/correct.js";
import { describePlan } from "../../correction/describe.js";
import { correctionSettings } from "../../correction/settings.js";
import { ERRORS } from "../../error-catalog.js";
import { VipError } from "../../errors.js";
import { consoleOutput, field } from "../../output.js";
import type { PolicyBoundOptions } from "../../scoring/policy-bounds.js";

interface CorrectArgs extends PolicyBoundOptions {
  stage: string;
  scoresDir: string;
  policy?: string;
  dryRun: boolean;
  yes: boolean;
  allowEmpty: boolean;
  out?: string;
  newDeploymentId?: string;
  forumUrl?: string;
  reason?: string;
  dataDir?: string;
  journalDir?: string;
  contract?: string;
  deploymentId?: string;
}

const action: NewTaskActionFunction<CorrectArgs> = async (args, hre) => {
  const settings = await correctionSettings(hre, args);
  const { old, env, request, stage } = settings;
  const plan = await planCorrection(old, request, env);
  describePlan(plan, consoleOutput);
  if (args.dryRun) {
    consoleOutput.line(
      args.policy === undefined
        ? "dry run: nothing was sent or written"
        : `dry run: nothing was sent; the computed final files are in ${request.source.scoresDir}`,
    );
    return;
  }
  if (!args.yes && process.stdin.isTTY === true) {
    const answer = await hre.interruptions.requestInput(
      "vip",
      `Correct stage ${stage}: deploy a new contract and replay ${plan.stages.length} stage(s) to it? (y/N)`,
    );
    if (!/^y(es)?$/i.test(answer.trim()))
      throw new VipError(ERRORS.AUTOPILOT.CORRECTION.CORRECTION_DECLINED, {
        stage,
      });
  }
  const outDir = path.resolve(
    args.out ??
      path.join(hre.config.paths.root, "vip-correction", `stage-${stage}`),
  );
  const done = await runCorrection(plan, env, request, {
    outDir,
    vipModuleAddress: request.base.moduleAddress,
    metadata: args.forumUrl ?? "",
    ...(args.reason === undefined ? {} : { reason: args.reason }),
  });
  consoleOutput.line(field("next", nextSteps(done.files, done.newContract)));
};

/** What the operator does next, from the files written. */
function nextSteps(files: string[], newContract: string): string {
  const named = (name: string) => files.find((f) => path.basename(f) === name);
  const post = named("forum-post.md");
  const proposal = named("proposal.json");
  const backup = named("proposal-contract-update.json");
  const submit =
    proposal === undefined
      ? "no proposal yet: a wrong stage has no snapshot; run this command again once the agent has taken it"
      : `submit ${proposal}${backup === undefined ? "" : ` and ${backup} (both: see the plan)`} ` +
        "with initiad tx gov submit-proposal (its metadata the post's URL), and ask the VIP agent " +
        "to take the stage again once it executes";
  return (
    `publish ${post ?? "the forum post"}; ${submit}. Every task and the autopilot now use ` +
    `${newContract} (restart the autopilot; on a second host, copy ignition/vip-contracts.json ` +
    `and the new deployment, and add its key with allowlist:add --contract ${newContract})`
  );
}

export default action;
