import { getAddress, isAddress } from "ethers";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { VipScore__factory } from "../../types/ethers-contracts/index.js";
import { ERRORS } from "../error-catalog.js";
import { VipError, defined } from "../errors.js";
import { deployedAddress, deploymentDir } from "./deployment.js";
import { currentDeploymentId } from "./succession.js";
import type { Connection } from "../network/connect.js";

export interface LocateOptions {
  /** `--contract`: an explicit address, which wins over the deployment. */
  contract?: string;
  /**
   * `--deployment-id`: the Ignition deployment to read the address from
   * (default: the one a correction made current, else `chain-<chainId>`).
   */
  deploymentId?: string;
  ignitionPath: string;
}

/**
 * Like `locateScoreContract`, but undefined (not an error) when no `--contract`
 * is given and nothing was deployed.
 */
export async function findScoreContract(
  connection: Connection,
  options: LocateOptions,
  runner: VipScore["runner"],
): Promise<VipScore | undefined> {
  return locate(connection, options, runner, true);
}

/**
 * The scoring contract the task operates, bound to the network's signer, after
 * checking that code lives at its address (a journal left from a chain that was
 * reset points at nothing).
 */
export async function locateScoreContract(
  connection: Connection,
  options: LocateOptions,
  runner: VipScore["runner"],
): Promise<VipScore> {
  return defined(
    await locate(connection, options, runner, false),
    "locate refuses rather than return nothing when not optional",
  );
}

async function locate(
  connection: Connection,
  options: LocateOptions,
  runner: VipScore["runner"],
  optional: boolean,
): Promise<VipScore | undefined> {
  const chainId = (await connection.ethers.provider.getNetwork()).chainId;
  let address: string;
  let source: string;
  if (options.contract !== undefined) {
    if (!isAddress(options.contract))
      throw new VipError(ERRORS.CONTRACT.ACCOUNTS.NOT_AN_ADDRESS, {
        option: "--contract",
        value: options.contract,
      });
    address = getAddress(options.contract);
    source = "--contract";
  } else {
    const dir = deploymentDir(
      options.ignitionPath,
      chainId,
      options.deploymentId ??
        (await currentDeploymentId(options.ignitionPath, chainId)),
    );
    const found = await deployedAddress(dir);
    if (found === undefined) {
      if (optional) return undefined;
      throw new VipError(ERRORS.CONTRACT.DEPLOYMENT.NO_DEPLOYMENT, {
        chainId,
        dir,
        network: connection.networkName,
      });
    }
    address = getAddress(found);
    source = `deployment ${dir}`;
  }
  const code = await connection.ethers.provider.getCode(address);
  if (code === "0x") {
    throw new VipError(ERRORS.CONTRACT.DEPLOYMENT.NO_CODE, {
      address,
      source,
      network: connection.networkName,
      chainId,
    });
  }
  return VipScore__factory.connect(address, runner);
}
