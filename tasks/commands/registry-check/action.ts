import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { ERRORS } from "../../error-catalog.js";
import { VipError } from "../../errors.js";
import { consoleOutput } from "../../output.js";
import { readEntry } from "../../registry/files.js";
import { checkEntry } from "../../registry/validate.js";

interface RegistryCheckArgs {
  dir: string;
}

/**
 * Checks an entry on files alone: the registry's schemas and its CI's rules,
 * every failing field named.
 */
const action: NewTaskActionFunction<RegistryCheckArgs> = async (args) => {
  const { files, place } = await readEntry(args.dir);
  const problems = checkEntry(files, place);
  for (const problem of problems) consoleOutput.line(problem);
  if (problems.length > 0)
    throw new VipError(ERRORS.REGISTRY.ENTRY.ENTRY_PROBLEMS, {
      dir: args.dir,
      count: problems.length,
    });
  const checked =
    files.profile === undefined
      ? "chain.json and assetlist.json (no profile, as testnet entries have none)"
      : `chain.json, assetlist.json and ${place.profileFile}`;
  consoleOutput.line(
    `${args.dir}: ${checked} pass the registry's schemas and rules`,
  );
};

export default action;
