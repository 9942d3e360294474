import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { activityContext } from "../../scoring/context.js";
import { EngineProcess } from "../../scoring/engine-process.js";
import type { PolicyBoundOptions } from "../../scoring/policy-bounds.js";
import { writeStageFiles } from "../../scoring/publish.js";
import { warnIfOldMinievm } from "../../indexer/node-version.js";
import { scoreStage } from "../../scoring/score-stage.js";
import { parseStage } from "../../contract/preflight.js";
import { field } from "../../output.js";
import { loadPolicies } from "../../policy/load.js";

interface ScoresComputeArgs extends PolicyBoundOptions {
  dataDir?: string;
  policy: string;
  stage: string;
  out: string;
}

const action: NewTaskActionFunction<ScoresComputeArgs> = async (args, hre) => {
  // The policy's engine starts now, while this command connects and
  // indexes: its start-up costs no time of its own.
  EngineProcess.warmUp();
  const stage = parseStage(args.stage);
  await loadPolicies(args.policy);
  const { ctx, connection } = await activityContext(hre, {
    dataDir: args.dataDir,
    bounds: args,
  });
  // Asked while the stage is computed; waited for at the end, failed or not.
  const versionChecked = warnIfOldMinievm(
    connection.networkName,
    connection.networkConfig,
    ctx.out,
  );
  try {
    const scores = await scoreStage(ctx, args.policy, stage);
    const written = await writeStageFiles(
      args.out,
      scores.manifest,
      scores.csv,
    );
    ctx.out.line(field("wrote", `${written.csv} and ${written.manifest}`));
  } finally {
    await versionChecked;
  }
};

export default action;
