import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { type Connection, connect, signerOf } from "../network/connect.js";
import { locateScoreContract } from "./locate.js";

export interface ContractArgs {
  contract?: string;
  deploymentId?: string;
}

export interface ContractContext {
  connection: Connection;
  signer: Awaited<ReturnType<typeof signerOf>>;
  score: VipScore;
}

/** The network connection, its signer, and the scoring contract bound to that signer. */
export async function contractContext(hre: HardhatRuntimeEnvironment, args: ContractArgs): Promise<ContractContext> {
  const connection = await connect(hre);
  const signer = await signerOf(connection);
  const score = await locateScoreContract(connection, { ...args, ignitionPath: hre.config.paths.ignition }, signer);
  return { connection, signer, score };
}
