import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { compareScores } from "../../compare/compare.js";
import { comparisonFiles } from "../../compare/output-files.js";
import { PAGE_SHOWN } from "../../compare/page-view.js";
import {
  type CompareOptions,
  prepareComparison,
} from "../../compare/prepare.js";
import { comparisonLines } from "../../compare/terminal.js";
import {
  refuseOutFile,
  writeComparisonFiles,
} from "../../compare/write-files.js";
import { warnIfOldMinievm } from "../../indexer/node-version.js";
import { field } from "../../output.js";
import { activityContext } from "../../scoring/context.js";
import { sayPolicy } from "../../scoring/policy-choice.js";
import { unpackRows } from "../../scoring/score-rows.js";
import { scorePolicies, type StageScores } from "../../scoring/score-stage.js";

interface ScoresCompareArgs extends CompareOptions {
  out?: string;
  dataDir?: string;
}

/** What the terminal lists: the top, and each list of largest changes. */
const TERMINAL_LENGTHS = { top: 10, changes: 5 };

const action: NewTaskActionFunction<ScoresCompareArgs> = async (args, hre) => {
  // The options and both policies are checked before anything is read.
  const prepared = await prepareComparison(hre, args);
  if (args.out !== undefined) await refuseOutFile(args.out);
  const { ctx, network } = await activityContext(hre, {
    dataDir: args.dataDir,
    bounds: args,
    needsBaseChain: prepared.target.kind === "stage",
  });
  const versionChecked = warnIfOldMinievm(
    network.name,
    network.config,
    ctx.out,
  );
  try {
    sayPolicy(ctx.out, "current", prepared.current);
    sayPolicy(ctx.out, "proposed", prepared.proposed);
    if (prepared.current.sha256 === prepared.proposed.sha256)
      ctx.out.warn(
        "--policy and --with run the same policy: nothing can change",
      );
    const [current, proposed] = (await scorePolicies(
      ctx,
      [prepared.current, prepared.proposed],
      prepared.target,
      { policyPath: args.policy },
    )) as [StageScores, StageScores];
    const rows = [
      unpackRows(current.computation.rows),
      unpackRows(proposed.computation.rows),
    ] as const;
    const comparison = compareScores(...rows, PAGE_SHOWN);
    for (const line of comparisonLines(comparison, TERMINAL_LENGTHS))
      ctx.out.line(line);
    if (args.out === undefined) return;
    const written = await writeComparisonFiles(
      args.out,
      comparisonFiles(current, proposed, comparison, rows),
    );
    ctx.out.line(field("wrote", written.join(", ")));
  } finally {
    await versionChecked;
  }
};

export default action;
