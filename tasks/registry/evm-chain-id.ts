import { keccak256, toUtf8Bytes } from "ethers";

/**
 * The modulus of the registry's rule (the largest safe integer's neighbourhood,
 * as wallets need).
 */
export const REGISTRY_MODULUS = 4503599627370476n;

/**
 * The EVM chain id the initia registry expects for a rollup:
 * keccak256(chain_id)[0..8] mod 4503599627370476.
 */
export function registryEvmChainId(cosmosChainId: string): bigint {
  return (
    BigInt(keccak256(toUtf8Bytes(cosmosChainId)).slice(0, 18)) %
    REGISTRY_MODULUS
  );
}
