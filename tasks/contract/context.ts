import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { type Connection, connect } from "../network/connect.js";
import { type OperatorSigner, operatorSigner } from "../signer/signer.js";
import { locateScoreContract } from "./locate.js";

export interface ContractArgs {
  contract?: string;
  deploymentId?: string;
}

export interface ContractContext {
  connection: Connection;
  operator: OperatorSigner;
  signer: OperatorSigner["signer"];
  score: VipScore;
}

/** The network connection, its signer, and the scoring contract bound to that signer. */
export async function contractContext(hre: HardhatRuntimeEnvironment, args: ContractArgs): Promise<ContractContext> {
  const connection = await connect(hre);
  const operator = await operatorSigner(connection);
  const score = await locateScoreContract(connection, { ...args, ignitionPath: hre.config.paths.ignition }, operator.signer);
  return { connection, operator, signer: operator.signer, score };
}
