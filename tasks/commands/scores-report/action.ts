import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { readOnlyContract } from "../../contract/context.js";
import { type Output, consoleOutput, field } from "../../output.js";
import { buildReport } from "../../report/build.js";

interface ScoresReportArgs {
  scoresDir: string;
  out: string;
  policy?: string;
  contract?: string;
  deploymentId?: string;
}

/**
 * Whether the contract holds each stage finalized: asked only when
 * `--network` is given; without it, a stage's state comes from its files.
 */
async function chainState(
  hre: HardhatRuntimeEnvironment,
  args: ScoresReportArgs,
): Promise<((stage: bigint) => Promise<boolean>) | undefined> {
  if (hre.globalOptions.network === undefined) return undefined;
  const score = await readOnlyContract(hre, args);
  return async (stage) => (await score.stages(stage)).isFinalized;
}

/** `scores:report`, with where it prints (a test passes its own). */
export async function reportAction(
  args: ScoresReportArgs,
  hre: HardhatRuntimeEnvironment,
  out: Output = consoleOutput,
): Promise<void> {
  const finalizedOnChain = await chainState(hre, args);
  const network = hre.globalOptions.network;
  const { stages, files } = await buildReport({
    scoresDir: args.scoresDir,
    out: args.out,
    ...(args.policy === undefined ? {} : { policy: args.policy }),
    ...(finalizedOnChain === undefined ? {} : { finalizedOnChain }),
    // The pages' commands name the network the report was built against;
    // without one, "rollup", which a reader replaces with their own.
    ...(network === undefined ? {} : { network }),
  });
  out.line(field("stages", stages.join(", ")));
  out.line(field("files", files));
  out.line(field("wrote", `${args.out} (open index.html)`));
}

const action: NewTaskActionFunction<ScoresReportArgs> = (args, hre) =>
  reportAction(args, hre);

export default action;
