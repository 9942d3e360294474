import { expect } from "chai";
import { network } from "hardhat";

import {
  deployVipScore,
  measureGas,
  sampleAddresses,
  sampleScores,
} from "../../scripts/gas/scenarios.js";
import { defined } from "../../tasks/errors.js";

const { ethers } = await network.create();

/**
 * Gas on the simulated network is deterministic, so these ceilings fail on any
 * regression.
 */
describe("VipScore gas ceilings", () => {
  const PER_NEW_ADDRESS = 31_000n;
  const PER_EXISTING_ADDRESS = 9_200n;
  const FINALIZE = 35_000n;
  const FINALIZE_AT = 34_000n; // measured 33,354: finalizeStage's plus the stage record's cold read
  const TX_GAS_CAP = 16_777_216n; // the simulated network's per-transaction cap (EIP-7825)

  it("stays under the per-address, finalize and fenced-finalize budgets for batches of 100 and 300", async () => {
    const rows = await measureGas(ethers, [100, 300]);
    for (const row of rows) {
      const perAddress =
        row.addresses > 0 ? row.gas / BigInt(row.addresses) : row.gas;
      const label = `${row.operation} (${row.addresses})`;
      if (row.operation === "updateScores, new addresses")
        expect(perAddress, label).to.be.at.most(PER_NEW_ADDRESS);
      if (row.operation.startsWith("updateScores, same addresses"))
        expect(perAddress, label).to.be.at.most(PER_EXISTING_ADDRESS);
      if (row.operation === "finalizeStage")
        expect(row.gas, label).to.be.at.most(FINALIZE);
      if (row.operation === "finalizeStageAt")
        expect(row.gas, label).to.be.at.most(FINALIZE_AT);
    }
    expect(rows.map((r) => r.operation)).to.include.members([
      "updateScores, new addresses",
      "updateScores, same addresses, new scores",
      "finalizeStage",
      "finalizeStageAt",
    ]);
  });

  it("fits 530 new addresses in one transaction under the 16,777,216 gas cap, with an UpdateScore each", async () => {
    const score = await deployVipScore(ethers, 1n);
    const addrs = sampleAddresses(530, "cap");
    const tx = await score.updateScores(1n, addrs, sampleScores(530, "cap"), {
      gasLimit: TX_GAS_CAP,
    });
    const receipt = await tx.wait();
    expect(receipt?.status).to.equal(1);
    expect(defined(receipt, "receipt").gasUsed).to.be.at.most(TX_GAS_CAP);
    expect(await score.scoreCount(1n)).to.equal(530n);
    const updateScore = score.interface.getEvent("UpdateScore").topicHash;
    expect(
      defined(receipt, "receipt").logs.filter(
        (log) => log.topics[0] === updateScore,
      ),
    ).to.have.length(530);
  });
});
