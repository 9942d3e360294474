import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { locateScoreContract } from "./locate.js";
import { refuseSuperseded } from "./succession.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
import { ignitionPath } from "../config/package-files.js";
import {
  type Connection,
  connect,
  connectReadOnly,
} from "../network/connect.js";
import { type OperatorSigner, operatorSigner } from "../signer/signer.js";

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

/**
 * The network connection, its signer, and the scoring contract bound to that
 * signer.
 */
export async function contractContext(
  hre: HardhatRuntimeEnvironment,
  args: ContractArgs,
  {
    superseded = "refuse",
  }: {
    /**
     * A contract a correction replaced is refused for writes; `allow` is for
     * revoking a key on it (allowlist:remove), which takes power away.
     */
    superseded?: "refuse" | "allow";
  } = {},
): Promise<ContractContext> {
  const connection = await connect(hre);
  const operator = await operatorSigner(connection);
  const score = await locateScoreContract(
    connection,
    { ...args, ignitionPath: ignitionPath(hre) },
    operator.signer,
  );
  if (superseded === "refuse")
    await refuseSuperseded(
      ignitionPath(hre),
      (await connection.ethers.provider.getNetwork()).chainId,
      score,
    );
  return { connection, operator, signer: operator.signer, score };
}

/**
 * The scoring contract for reading only: no signer, so no key or Ledger is
 * needed.
 */
export async function readOnlyContract(
  hre: HardhatRuntimeEnvironment,
  args: ContractArgs,
): Promise<VipScore> {
  const connection = await connectReadOnly(hre);
  return locateScoreContract(
    connection,
    { ...args, ignitionPath: ignitionPath(hre) },
    connection.ethers.provider,
  );
}
