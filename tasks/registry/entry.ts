import type { RegistryInput } from "./input.js";

/** What the rollup itself answers for its entry. */
export interface RollupFacts {
  chainId: string;
  evmChainId: bigint;
  bridgeId: bigint;
  /** The node's version tag, e.g. v1.0.2. */
  version: string;
}

export interface RegistryEntry {
  chain: Record<string, unknown>;
  assetlist: Record<string, unknown>;
  profile: Record<string, unknown>;
}

/**
 * The three files of a minievm rollup's registry entry, from the operator's
 * input and the rollup's facts.
 */
export function buildEntry(
  input: RegistryInput,
  facts: RollupFacts,
): RegistryEntry {
  const chain = {
    $schema: "../../chain.schema.json",
    chain_name: input.chain_name,
    chain_id: facts.chainId,
    evm_chain_id: Number(facts.evmChainId),
    pretty_name: input.pretty_name,
    ...(input.website === undefined ? {} : { website: input.website }),
    description: input.description,
    network_type: input.network_type,
    bech32_prefix: "init",
    slip44: 60,
    key_algos: ["initia_ethsecp256k1"],
    fees: { fee_tokens: input.fee_tokens },
    apis: input.apis,
    logo_URIs: { png: input.logo },
    metadata: {
      is_l1: false,
      op_bridge_id: facts.bridgeId.toString(),
      op_denoms: input.op_denoms,
      minitia: { type: "minievm", version: facts.version },
    },
  };
  const assetlist = {
    $schema: "../../assetlist.schema.json",
    chain_name: input.chain_name,
    assets: input.assets.map((asset) => ({
      denom_units: [
        { denom: asset.base, exponent: 0 },
        ...(asset.display === asset.base
          ? []
          : [{ denom: asset.display, exponent: asset.exponent }]),
      ],
      ...(asset.type_asset === undefined
        ? {}
        : { type_asset: asset.type_asset }),
      ...(asset.address === undefined ? {} : { address: asset.address }),
      base: asset.base,
      name: asset.name,
      display: asset.display,
      symbol: asset.symbol,
      logo_URIs: { png: input.logo },
    })),
  };
  const profile = {
    $schema: "../profile.schema.json",
    name: input.chain_name,
    pretty_name: input.pretty_name,
    category: input.category,
    description: input.description,
    ...(input.summary === undefined ? {} : { summary: input.summary }),
    logo: input.logo,
    status: input.status,
    l2: true,
    op_bridge_id: facts.bridgeId.toString(),
    // The scoring policy: what earns a score, shown on the VIP program's page
    // and read by voters.
    vip: {
      ...(input.vip.forum_url === undefined
        ? {}
        : { forum_url: input.vip.forum_url }),
      actions: input.vip.actions,
    },
  };
  return { chain, assetlist, profile };
}
