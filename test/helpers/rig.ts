import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { JsonRpcProvider, Wallet } from "ethers";

import { startFaultProxy, type FaultProxy } from "./fault-proxy.js";
import { startHardhatNode, type HardhatNode } from "./hardhat-node.js";
import { DEPLOYER_KEY } from "./keys.js";
import { VipScore__factory } from "../../types/ethers-contracts/index.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";

/**
 * A provider that reads the node directly, without ethers' 250 ms call cache
 * (which could hide a send).
 */
export function directProvider(node: HardhatNode): JsonRpcProvider {
  return new JsonRpcProvider(node.url, undefined, { cacheTimeout: -1 });
}

/** Deploys a VipScore at `startStage`, signed with the deployer's test key. */
export async function deployVipScore(
  provider: JsonRpcProvider,
  startStage: bigint,
): Promise<VipScore> {
  const score = await new VipScore__factory(
    new Wallet(DEPLOYER_KEY, provider),
  ).deploy(startStage);
  await score.waitForDeployment();
  return score;
}

export interface FaultyRig {
  node: HardhatNode;
  /** Tasks reach the node through this proxy. */
  proxy: FaultProxy;
  /** Tests read the node directly. */
  provider: JsonRpcProvider;
  journalDir: string;
  close(): Promise<void>;
}

/**
 * A hardhat node behind a fault-injecting proxy, and a scratch folder for
 * journals.
 */
export async function startFaultyRig(): Promise<FaultyRig> {
  const node = await startHardhatNode();
  const proxy = await startFaultProxy(node.url);
  const journalDir = await mkdtemp(path.join(tmpdir(), "vip-journals-"));
  return {
    node,
    proxy,
    provider: directProvider(node),
    journalDir,
    close: async () => {
      await Promise.all([proxy.close(), node.close()]);
      await rm(journalDir, { recursive: true, force: true });
    },
  };
}
