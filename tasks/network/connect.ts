import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { NetworkConnection } from "hardhat/types/network";

export type Connection = NetworkConnection;

/** The connection to the network named by `--network` (the default network when none is given). */
export async function connect(hre: HardhatRuntimeEnvironment): Promise<Connection> {
  return hre.network.getOrCreate();
}
