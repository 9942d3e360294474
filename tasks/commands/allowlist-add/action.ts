import type { NewTaskActionFunction } from "hardhat/types/tasks";

import {
  changeAllowList,
  parseAllowListAddress,
} from "../../contract/allow-list.js";
import { contractContext } from "../../contract/context.js";
import { consoleOutput } from "../../output.js";
import { announceSigner } from "../../signer/signer.js";

interface AllowListArgs {
  address?: string;
  contract?: string;
  deploymentId?: string;
}

const action: NewTaskActionFunction<AllowListArgs> = async (args, hre) => {
  const address = parseAllowListAddress(args.address);
  const { connection, operator, signer, score } = await contractContext(
    hre,
    args,
  );
  announceSigner(consoleOutput, operator);
  await changeAllowList(
    score,
    signer,
    "add",
    address,
    connection.networkName,
    consoleOutput,
  );
};

export default action;
