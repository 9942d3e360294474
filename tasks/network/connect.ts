import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { NetworkConnection } from "hardhat/types/network";

import { VipError } from "../errors.js";

export type Connection = NetworkConnection;

/** The connection to the network named by `--network` (the default network when none is given). */
export async function connect(hre: HardhatRuntimeEnvironment): Promise<Connection> {
  return hre.network.getOrCreate();
}

/** The account that signs: the network's first account (a private key, a keystore entry, or a Ledger). */
export async function signerOf(connection: Connection) {
  const signers = await connection.ethers.getSigners();
  const signer = signers[0];
  if (signer === undefined) {
    throw new VipError(
      `network "${connection.networkName}" has no account to sign with: set PRIVATE_KEY (in the environment or with ` +
        "`npx hardhat keystore set PRIVATE_KEY`), or LEDGER_ACCOUNT to sign with a Ledger",
    );
  }
  return signer;
}
