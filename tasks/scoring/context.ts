import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { type PolicyBoundOptions, policyBounds } from "./policy-bounds.js";
import type { PolicyBounds } from "./sandbox.js";
import { baseChain, taskFolder } from "../config/settings.js";
import { batchTransport } from "../indexer/batch.js";
import type { IndexContext } from "../indexer/index-policies.js";
import { connectReadOnly, type Connection } from "../network/connect.js";
import { consoleOutput } from "../output.js";

/**
 * What computing a stage reads besides the index: the base chain's REST API
 * (the stage windows, its clock), and how far a policy may go.
 */
export interface ActivityContext extends IndexContext {
  l1RestUrl: string;
  moduleAddress: string;
  /** How far a scoring policy may go (default: `DEFAULT_POLICY_BOUNDS`). */
  policyBounds?: PolicyBounds;
}

/**
 * What the scoring commands read: the rollup named by `--network` (read-only:
 * no key is resolved), its chain id, and the base chain's REST API for the
 * stage windows.
 */
export async function activityContext(
  hre: HardhatRuntimeEnvironment,
  {
    needsBaseChain = true,
    dataDir,
    bounds = {},
  }: {
    needsBaseChain?: boolean;
    dataDir?: string;
    /** `--policy-timeout` and `--policy-memory`, for the commands that score. */
    bounds?: PolicyBoundOptions;
  } = {},
): Promise<{ ctx: ActivityContext; connection: Connection }> {
  const connection = await connectReadOnly(hre);
  const chainId = (await connection.ethers.provider.getNetwork()).chainId;
  const { restUrl: l1RestUrl, moduleAddress } = needsBaseChain
    ? await baseChain(connection.networkName, connection.networkConfig)
    : { restUrl: "", moduleAddress: "" };
  return {
    connection,
    ctx: {
      provider: connection.provider,
      chainId,
      networkName: connection.networkName,
      policyBounds: policyBounds(bounds, connection.networkConfig),
      dataDir: taskFolder(hre.config.paths.root, "data", dataDir),
      l1RestUrl,
      moduleAddress,
      out: consoleOutput,
      batch: await batchTransport(connection.networkConfig),
    },
  };
}
