import { getAddress, isAddress } from "ethers";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { VipScore__factory } from "../../types/ethers-contracts/index.js";
import { VipError, defined } from "../errors.js";
import type { Connection } from "../network/connect.js";
import { deployedAddress, deploymentDir } from "./deployment.js";

export interface LocateOptions {
  /** `--contract`: an explicit address, which wins over the deployment. */
  contract?: string;
  /**
   * `--deployment-id`: the Ignition deployment to read the address from
   * (default `chain-<chainId>`).
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
    "(await locate(connection, options, runner, false))",
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
      throw new VipError(
        `--contract ${options.contract} is not an address (0x followed by 40 hex digits)`,
      );
    address = getAddress(options.contract);
    source = "--contract";
  } else {
    const dir = deploymentDir(
      options.ignitionPath,
      chainId,
      options.deploymentId,
    );
    const found = await deployedAddress(dir);
    if (found === undefined) {
      if (optional) return undefined;
      throw new VipError(
        `no VipScore deployment found for chain ${chainId} (${dir}/deployed_addresses.json): ` +
          `run \`npx hardhat contract:deploy --network ${connection.networkName}\` first, or pass --contract <address>`,
      );
    }
    address = getAddress(found);
    source = `deployment ${dir}`;
  }
  const code = await connection.ethers.provider.getCode(address);
  if (code === "0x") {
    throw new VipError(
      `no contract code at ${address} (from ${source}) on network "${connection.networkName}" (chain ${chainId}): ` +
        "was the chain reset, or is this the wrong network?",
    );
  }
  return VipScore__factory.connect(address, runner);
}
