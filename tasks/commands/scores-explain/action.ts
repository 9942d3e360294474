import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { ignitionPath } from "../../config/package-files.js";
import { findScoreContract } from "../../contract/locate.js";
import {
  explainAddress,
  parseExplainAddress,
} from "../../explain/explain-address.js";
import { explanationJson } from "../../explain/explain.js";
import { explanationLines } from "../../explain/render.js";
import { connectReadOnly } from "../../network/connect.js";
import { consoleOutput, type Output } from "../../output.js";
import { activityContext } from "../../scoring/context.js";
import type { PolicyBoundOptions } from "../../scoring/policy-bounds.js";
import { prepareScoring } from "../../scoring/prepare.js";
import type { ScoreTargetOptions } from "../../scoring/target-option.js";

interface ScoresExplainArgs extends PolicyBoundOptions, ScoreTargetOptions {
  policy: string;
  address: string;
  dataDir?: string;
  contract?: string;
  deploymentId?: string;
  json: boolean;
  all: boolean;
}

/** With --json, only the document goes to stdout; warnings still go to stderr. */
const quiet: Output = {
  line: () => undefined,
  warn: (text) => consoleOutput.warn(text),
};

const action: NewTaskActionFunction<ScoresExplainArgs> = async (args, hre) => {
  // Everything the user typed is checked before anything is read.
  const address = parseExplainAddress(args.address);
  const prepared = await prepareScoring(hre, "scores:explain", args);
  const { ctx } = await activityContext(hre, {
    dataDir: args.dataDir,
    bounds: args,
    needsBaseChain: prepared.target.kind === "stage",
  });
  ctx.out = args.json ? quiet : consoleOutput;
  // The contract is read through Hardhat's connection (ethers' contract).
  const connection = await connectReadOnly(hre);
  const contract = await findScoreContract(
    connection,
    { ...args, ignitionPath: ignitionPath(hre) },
    connection.ethers.provider,
  );
  const explained = await explainAddress(ctx, { prepared, address }, contract);
  if (args.json) console.log(explanationJson(explained));
  else
    for (const line of explanationLines(explained, args.all))
      consoleOutput.line(line);
};

export default action;
