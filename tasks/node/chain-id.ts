import { fetchCosmosChainId } from "../clients/cometbft.js";
import type { Connection } from "../network/connect.js";
import { field, type Output } from "../output.js";
import {
  REGISTRY_MODULUS,
  registryEvmChainId,
} from "../registry/evm-chain-id.js";

export interface ChainIdReport {
  chainId: bigint;
  cosmosChainId?: string;
  registryRuleHolds?: boolean;
}

/**
 * The rollup's EVM chain id (`eth_chainId`) in decimal and hex, checked against
 * the network's configured `chainId` and, when the CometBFT RPC is known,
 * against the registry's rule for the Cosmos chain id.
 */
export async function runChainId(
  connection: Connection,
  rollupRpcUrl: string | undefined,
  out: Output,
): Promise<ChainIdReport> {
  const hex = (await connection.provider.request({
    method: "eth_chainId",
    params: [],
  })) as string;
  const chainId = BigInt(hex);
  out.line(field("EVM chain id", `${chainId} (0x${chainId.toString(16)})`));
  const configured = connection.networkConfig.chainId;
  if (configured !== undefined && BigInt(configured) !== chainId) {
    out.warn(
      `network "${connection.networkName}" is configured with chainId ${configured}, but the node answers ${chainId}`,
    );
  }
  if (rollupRpcUrl === undefined) {
    out.line(
      "Cosmos chain id unknown: set ROLLUP_RPC_URL to check the registry rule",
    );
    return { chainId };
  }
  const cosmosChainId = await fetchCosmosChainId(rollupRpcUrl);
  const expected = registryEvmChainId(cosmosChainId);
  const registryRuleHolds = expected === chainId;
  out.line(field("Cosmos chain id", cosmosChainId));
  if (registryRuleHolds) {
    out.line(
      field(
        "registry rule",
        `holds: keccak256("${cosmosChainId}")[0..8] mod ${REGISTRY_MODULUS} = ${expected}`,
      ),
    );
  } else {
    out.warn(
      `the registry rule does not hold: keccak256("${cosmosChainId}")[0..8] mod ${REGISTRY_MODULUS} = ${expected}, ` +
        `not ${chainId}; the initia registry will refuse evm_chain_id ${chainId} for this rollup`,
    );
  }
  return { chainId, cosmosChainId, registryRuleHolds };
}
