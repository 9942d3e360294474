import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { activityContext } from "../../activity/context.js";
import { indexFile, indexPolicies } from "../../activity/index-policies.js";
import { VipError } from "../../errors.js";
import { field, formatNumber } from "../../output.js";
import { loadPolicies } from "../../policy/load.js";

interface ScoresIndexArgs {
  dataDir?: string;
  policy?: string;
}

const action: NewTaskActionFunction<ScoresIndexArgs> = async (args, hre) => {
  if (args.policy === undefined)
    throw new VipError(
      "--policy is required: a policy file (.sql) or a folder of them",
    );
  // The policies are read before the network is touched: a bad header never
  // waits on a node.
  const policies = await loadPolicies(args.policy);
  const { ctx } = await activityContext(hre, {
    needsBaseChain: false,
    dataDir: args.dataDir,
  });
  const report = await indexPolicies(ctx, policies);
  ctx.out.line(
    field(
      "indexed",
      `${policies.flatMap((p) => p.sources).length} source(s) up to block ${formatNumber(report.head)}: ${formatNumber(report.logs)} new log(s) in ${report.ranges} range(s); ${indexFile(ctx.dataDir, ctx.chainId)}`,
    ),
  );
};

export default action;
