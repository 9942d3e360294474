import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { taskFolder } from "../../config/settings.js";
import {
  type AllowListChange,
  changeAllowList,
  parseAllowListAddress,
} from "../../contract/allow-list.js";
import { contractContext } from "../../contract/context.js";
import { consoleOutput } from "../../output.js";
import { announceSigner } from "../../signer/signer.js";

interface AllowListArgs {
  address: string;
  contract?: string;
  deploymentId?: string;
  journalDir?: string;
}

/**
 * Adds `--address` to the contract's allow list, or removes it, journalled in
 * `--journal-dir` (the project's `vip-journal/` unless told).
 */
function allowListAction(
  change: AllowListChange,
): NewTaskActionFunction<AllowListArgs> {
  return async (args, hre) => {
    const address = parseAllowListAddress(args.address);
    // Revoking a key stays possible on a replaced contract (a second host's,
    // say): it only takes power away.
    const { connection, operator, signer, score } = await contractContext(
      hre,
      args,
      { superseded: change === "remove" ? "allow" : "refuse" },
    );
    announceSigner(consoleOutput, operator);
    await changeAllowList(
      score,
      signer,
      change,
      address,
      {
        network: connection.networkName,
        // The folder stage:finalize journals in, by default or as told.
        journalDir: taskFolder(
          hre.config.paths.root,
          "journal",
          args.journalDir,
        ),
      },
      consoleOutput,
    );
  };
}

export const add = allowListAction("add");
export const remove = allowListAction("remove");
