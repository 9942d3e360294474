import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { packageFile } from "../../config/package-files.js";
import { consoleOutput } from "../../output.js";
import { rehearse } from "../../rehearsal/rehearse.js";

interface RehearseArgs {
  file?: string;
}

const action: NewTaskActionFunction<RehearseArgs> = async (args, hre) => {
  await rehearse(
    hre,
    args.file ?? (await packageFile("scripts", "sample-scores.csv")),
    consoleOutput,
  );
};

export default action;
