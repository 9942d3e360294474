import type { HttpNetworkConfig } from "hardhat/types/config";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { type PolicyBoundOptions, policyBounds } from "./policy-bounds.js";
import type { PolicyBounds } from "./sandbox.js";
import { baseChain, taskFolder } from "../config/settings.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { httpReads } from "../indexer/http-reads.js";
import { type IndexContext, rollupReader } from "../indexer/index-policies.js";
import { readOnlyRollup } from "../network/connect.js";
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

/** The rollup a scoring command reads: its name in the config, and its config. */
export interface RollupNetwork {
  name: string;
  config: HttpNetworkConfig;
}

/**
 * What the scoring commands read: the rollup named by `--network` (read-only:
 * no key is resolved, and no Hardhat connection is made, see `httpReads`),
 * its chain id, and the base chain's REST API for the stage windows.
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
): Promise<{ ctx: ActivityContext; network: RollupNetwork }> {
  const network = await readOnlyRollup(hre);
  const reads = await httpReads(network.config);
  const chainId = await rollupReader({
    ...reads,
    out: consoleOutput,
  }).chainId();
  refuseOtherChain(network, chainId);
  const { restUrl: l1RestUrl, moduleAddress } = needsBaseChain
    ? await baseChain(network.name, network.config)
    : { restUrl: "", moduleAddress: "" };
  return {
    network,
    ctx: {
      ...reads,
      chainId,
      networkName: network.name,
      policyBounds: policyBounds(bounds, network.config),
      dataDir: taskFolder(hre.config.paths.root, "data", dataDir),
      l1RestUrl,
      moduleAddress,
      out: consoleOutput,
    },
  };
}

/**
 * Hardhat's connection refuses a node whose chain id differs from the
 * network's configured `chainId`; these commands read without one, so they
 * check it here, before the index of the wrong chain is read or written.
 */
function refuseOtherChain(network: RollupNetwork, answered: bigint): void {
  const configured = network.config.chainId;
  if (configured !== undefined && BigInt(configured) !== answered)
    throw new VipError(ERRORS.NETWORK.TASK_NETWORK.CHAIN_ID_MISMATCH, {
      name: network.name,
      configured,
      answered,
    });
}
