import type { HardhatEthers } from "@nomicfoundation/hardhat-ethers/types";
import { keccak256, getAddress, toBeHex } from "ethers";

import { defined } from "../../tasks/errors.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
import { VipScore__factory } from "../../types/ethers-contracts/index.js";

/**
 * Deterministic pseudo-random addresses and scores (entries `from` to `from +
 * count`): gas depends on calldata bytes, so runs must repeat exactly.
 */
export function sampleAddresses(
  count: number,
  seed: string,
  from = 0,
): string[] {
  return Array.from({ length: count }, (_, i) =>
    getAddress(
      "0x" +
        keccak256(
          toBeHex(BigInt(from + i) + 1n, 32) +
            Buffer.from(seed).toString("hex"),
        ).slice(26),
    ),
  );
}

export function sampleScores(count: number, seed: string, from = 0): bigint[] {
  return Array.from(
    { length: count },
    (_, i) =>
      (BigInt(
        keccak256(
          toBeHex(BigInt(from + i) + 1n, 32) +
            Buffer.from("score:" + seed).toString("hex"),
        ),
      ) %
        1_000_000_000n) +
      1n,
  );
}

export interface GasRow {
  operation: string;
  addresses: number;
  gas: bigint;
}

async function gasOf(
  tx: Promise<{
    wait(): Promise<{ gasUsed: bigint; status: number | null } | null>;
  }>,
): Promise<bigint> {
  const receipt = await (await tx).wait();
  if (receipt === null || receipt.status !== 1)
    throw new Error("transaction failed");
  return receipt.gasUsed;
}

export async function deployVipScore(
  ethers: HardhatEthers,
  startStage: bigint,
): Promise<VipScore> {
  const deployer = defined(
    (await ethers.getSigners())[0],
    "(await ethers.getSigners())[0]",
  );
  const contract = await new VipScore__factory(deployer).deploy(startStage);
  await contract.waitForDeployment();
  return contract;
}

/**
 * The scenarios of the gas table: a batch of `size` fresh addresses, the same
 * addresses again with new scores, for each size, then `finalizeStage` and
 * `finalizeStageAt`. Each size runs on its own contract so no batch warms
 * another's slots.
 */
export async function measureGas(
  ethers: HardhatEthers,
  sizes: readonly number[],
): Promise<GasRow[]> {
  const rows: GasRow[] = [];
  const deployer = defined(
    (await ethers.getSigners())[0],
    "(await ethers.getSigners())[0]",
  );
  const factory = new VipScore__factory(deployer);
  const deployTx = await factory.getDeployTransaction(1n);
  rows.push({
    operation: "deploy",
    addresses: 0,
    gas: await gasOf(deployer.sendTransaction(deployTx)),
  });

  for (const size of sizes) {
    const contract = await deployVipScore(ethers, 1n);
    const addrs = sampleAddresses(size, `bench-${size}`);
    rows.push({
      operation: "updateScores, new addresses",
      addresses: size,
      gas: await gasOf(
        contract.updateScores(1n, addrs, sampleScores(size, "first")),
      ),
    });
    rows.push({
      operation: "updateScores, same addresses, new scores",
      addresses: size,
      gas: await gasOf(
        contract.updateScores(1n, addrs, sampleScores(size, "second")),
      ),
    });
    rows.push({
      operation: "updateScores, same addresses, same scores",
      addresses: size,
      gas: await gasOf(
        contract.updateScores(1n, addrs, sampleScores(size, "second")),
      ),
    });
  }
  const contract = await deployVipScore(ethers, 1n);
  await gasOf(
    contract.updateScores(
      1n,
      sampleAddresses(10, "finalize"),
      sampleScores(10, "finalize"),
    ),
  );
  rows.push({
    operation: "finalizeStage",
    addresses: 0,
    gas: await gasOf(contract.finalizeStage(1n)),
  });
  // The same stage on another contract, finalized with the fence at the
  // write count the finalizer read.
  const fenced = await deployVipScore(ethers, 1n);
  await gasOf(
    fenced.updateScores(
      1n,
      sampleAddresses(10, "finalize"),
      sampleScores(10, "finalize"),
    ),
  );
  rows.push({
    operation: "finalizeStageAt",
    addresses: 0,
    gas: await gasOf(fenced.finalizeStageAt(1n, await fenced.writeCount(1n))),
  });
  return rows;
}
