import path from "node:path";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { fetchAbciInfo, fetchCosmosChainId } from "../clients/cometbft.js";
import { fetchBridgeInfo } from "../clients/rollup-rest.js";
import { packageFile } from "../config/package-files.js";
import type { Output } from "../output.js";
import { runWhitelistProposal } from "../proposal/write-whitelist-proposal.js";
import { readRegistryInput, runRegistryEntry } from "../registry/make-entry.js";

export interface OnboardingStandIns {
  cometBftUrl: string;
  rollupRestUrl: string;
  l1RestUrl: string;
  vipModuleAddress: string;
}

/**
 * registry:entry as an operator runs it: facts from the rollup's stand-ins, the
 * rest from the example input (scripts/examples/registry-input.json), validated
 * whole, written to the rehearsal's registry checkout `registry` (kept, so
 * the registry:check it suggests can read them).
 */
export async function rehearseRegistryEntry(
  evmChainId: bigint,
  standIns: OnboardingStandIns,
  registry: string,
  out: Output,
): Promise<void> {
  const input = await readRegistryInput(
    await packageFile("scripts", "examples", "registry-input.json"),
  );
  const [chainId, abci, bridge] = await Promise.all([
    fetchCosmosChainId(standIns.cometBftUrl),
    fetchAbciInfo(standIns.cometBftUrl),
    fetchBridgeInfo(standIns.rollupRestUrl),
  ]);
  await runRegistryEntry(
    registry,
    input,
    { chainId, evmChainId, bridgeId: bridge.bridgeId, version: abci.version },
    false,
    out,
  );
}

/**
 * proposal:whitelist with the deployer as the operator, checked against the
 * stand-ins and read back, written into `dir` (kept, for the submit command
 * it suggests).
 */
export async function rehearseProposal(
  score: VipScore,
  operator: string,
  standIns: OnboardingStandIns,
  dir: string,
  out: Output,
): Promise<void> {
  await runWhitelistProposal(
    {
      operator,
      commissionMaxRate: "0.5",
      commissionMaxChangeRate: "0.1",
      commissionRate: "0.2",
      metadata: "https://forum.initia.xyz/t/vip-whitelist-rehearsal/1",
      title: "Whitelist the rehearsal rollup in VIP",
      summary:
        "Registers the rehearsal rollup's bridge, operator and scoring contract",
      out: path.join(dir, "proposal.json"),
      force: false,
    },
    {
      l1RestUrl: standIns.l1RestUrl,
      rollupRestUrl: standIns.rollupRestUrl,
      vipModuleAddress: standIns.vipModuleAddress,
      score,
      network: "default",
    },
    out,
  );
}
