import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { warnIfOldMinievm } from "../../indexer/node-version.js";
import { field } from "../../output.js";
import { activityContext } from "../../scoring/context.js";
import type { PolicyBoundOptions } from "../../scoring/policy-bounds.js";
import {
  prepareScoring,
  sayTrial,
  scorePrepared,
} from "../../scoring/prepare.js";
import { writeStageFiles } from "../../scoring/publish.js";
import type { ScoreTargetOptions } from "../../scoring/target-option.js";

interface ScoresComputeArgs extends PolicyBoundOptions, ScoreTargetOptions {
  dataDir?: string;
  policy: string;
  out: string;
}

const action: NewTaskActionFunction<ScoresComputeArgs> = async (args, hre) => {
  // The options and the policy are checked before anything is read.
  const prepared = await prepareScoring(hre, "scores:compute", args);
  const { ctx, network } = await activityContext(hre, {
    dataDir: args.dataDir,
    bounds: args,
    needsBaseChain: prepared.target.kind === "stage",
  });
  // Asked while the stage is computed; waited for at the end, failed or not.
  const versionChecked = warnIfOldMinievm(
    network.name,
    network.config,
    ctx.out,
  );
  try {
    const scores = await scorePrepared(ctx, prepared);
    const written = await writeStageFiles(
      args.out,
      scores.manifest,
      scores.csv,
      scores.policy.sql,
    );
    ctx.out.line(
      field(
        "wrote",
        `${written.csv}, ${written.manifest} and the policy, ${written.policy}`,
      ),
    );
    sayTrial(ctx.out, prepared);
  } finally {
    await versionChecked;
  }
};

export default action;
