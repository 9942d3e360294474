import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { setAside } from "../../indexer/index-format.js";
import { indexFile, indexPolicies } from "../../indexer/index-policies.js";
import { warnIfOldMinievm } from "../../indexer/node-version.js";
import { field, formatNumber } from "../../output.js";
import { loadPolicies } from "../../policy/load.js";
import { activityContext } from "../../scoring/context.js";

interface ScoresIndexArgs {
  dataDir?: string;
  policy: string;
  rebuild?: boolean;
}

const action: NewTaskActionFunction<ScoresIndexArgs> = async (args, hre) => {
  // The policies are read before the network is touched: a bad header never
  // waits on a node.
  const policies = await loadPolicies(args.policy);
  const { ctx, network } = await activityContext(hre, {
    needsBaseChain: false,
    dataDir: args.dataDir,
  });
  // Asked while the index runs; waited for at the end, failed or not.
  const versionChecked = warnIfOldMinievm(
    network.name,
    network.config,
    ctx.out,
  );
  try {
    const file = indexFile(ctx.dataDir, ctx.chainId);
    if (args.rebuild === true) {
      const aside = await setAside(file);
      ctx.out.line(
        field(
          "rebuild",
          aside === undefined
            ? `no index at ${file}: indexing afresh`
            : `moved ${file} (format ${aside.format}) aside to ${aside.to}, kept as it was ` +
                "(the node may have pruned blocks since); indexing afresh from each source's from-block",
        ),
      );
    }
    const report = await indexPolicies(ctx, policies, {
      policyPath: args.policy,
    });
    ctx.out.line(
      field(
        "indexed",
        `${policies.flatMap((p) => p.sources).length} source(s) up to block ${formatNumber(report.head)}: ` +
          `${formatNumber(report.logs)} new log(s) in ${report.ranges} range(s); ${file}`,
      ),
    );
  } finally {
    await versionChecked;
  }
};

export default action;
