import { expect } from "chai";
import { network } from "hardhat";

import {
  deployVipScore,
  sampleAddresses,
  sampleScores,
} from "../../scripts/gas/scenarios.js";
import { defined } from "../../tasks/errors.js";

const { ethers } = await network.create();

describe("VipScore through its TypeChain binding", () => {
  const START = 15n;

  it("runs a stage: batch, single writes, finalize, read back with paging", async () => {
    const score = await deployVipScore(ethers, START);
    const addrs = sampleAddresses(12, "flow");
    const amounts = sampleScores(12, "flow");
    // An indexer that follows UpdateScore sees every entry of a batch, with the
    // running total.
    const receipt = await (
      await score.updateScores(START, addrs, amounts)
    ).wait();
    const events = defined(receipt, "receipt")
      .logs.map((log) => score.interface.parseLog(log))
      .filter((e) => e?.name === "UpdateScore");
    let running = 0n;
    expect(
      events.map((e) => [
        defined(e, "e").args.addr,
        defined(e, "e").args.stage,
        defined(e, "e").args.score,
        defined(e, "e").args.totalScore,
      ]),
    ).to.deep.equal(
      addrs.map((addr, i) => [
        addr,
        START,
        amounts[i],
        (running += defined(amounts[i], "amounts[i]")),
      ]),
    );
    const alice = defined(
      sampleAddresses(1, "alice")[0],
      'sampleAddresses(1, "alice")[0]',
    );
    await expect(score.increaseScore(START, alice, 5n)).to.emit(
      score,
      "UpdateScore",
    );
    await expect(score.finalizeStage(START))
      .to.emit(score, "FinalizeStage")
      .withArgs(START)
      .and.to.emit(score, "CreateStage")
      .withArgs(START + 1n);

    const seen: string[] = [];
    for (let offset = 0n; ; offset += 5n) {
      const page = await score.getScores(START, offset, 5n);
      seen.push(...page.map((e) => e.addr));
      if (page.length < 5) break;
    }
    expect(seen).to.deep.equal([...addrs, alice]);
    const stage = await score.stages(START);
    expect(stage.isFinalized).to.equal(true);
    expect(stage.totalScore).to.equal(amounts.reduce((a, b) => a + b, 0n) + 5n);
    expect(await score.openStage()).to.equal(START + 1n);
  });

  it("reports each refusal with its custom error and arguments", async () => {
    const score = await deployVipScore(ethers, START);
    const outsider = defined(
      (await ethers.getSigners())[1],
      "(await ethers.getSigners())[1]",
    );
    const alice = defined(
      sampleAddresses(1, "errors")[0],
      'sampleAddresses(1, "errors")[0]',
    );

    await expect(score.connect(outsider).updateScore(START, alice, 1n))
      .to.be.revertedWithCustomError(score, "PermissionDenied")
      .withArgs(outsider.address);
    await expect(
      score.updateScores(START, [alice], []),
    ).to.be.revertedWithCustomError(score, "AddrsAndAmountsLengthMistmatch");
    await expect(score.updateScore(START + 1n, alice, 1n))
      .to.be.revertedWithCustomError(score, "StageNotFound")
      .withArgs(START + 1n);
    await expect(score.decreaseScore(START, alice, 1n))
      .to.be.revertedWithCustomError(score, "ScoreUnderflow")
      .withArgs(alice, 0n, 1n);
    await expect(score.finalizeStage(START + 1n))
      .to.be.revertedWithCustomError(score, "PreviousStageNotFinalized")
      .withArgs(START);
    await expect(score.getScores(START, 0n, 1001n))
      .to.be.revertedWithCustomError(score, "PageLimitTooLarge")
      .withArgs(1001n, 1000n);

    await score.finalizeStage(START);
    await expect(score.updateScores(START, [alice], [1n]))
      .to.be.revertedWithCustomError(score, "StageFinalized")
      .withArgs(START);
    await expect(score.finalizeStage(START))
      .to.be.revertedWithCustomError(score, "StageFinalized")
      .withArgs(START);

    const deployer = defined(
      (await ethers.getSigners())[0],
      "(await ethers.getSigners())[0]",
    );
    await expect(score.removeAllowList(deployer.address))
      .to.be.revertedWithCustomError(score, "LastAllowListAddress")
      .withArgs(deployer.address);
  });

  it("refuses stage zero at deployment", async () => {
    const deployer = defined(
      (await ethers.getSigners())[0],
      "(await ethers.getSigners())[0]",
    );
    const { VipScore__factory } =
      await import("../../types/ethers-contracts/index.js");
    const factory = new VipScore__factory(deployer);
    await expect(factory.deploy(0n)).to.be.revertedWithCustomError(
      factory,
      "ZeroStage",
    );
  });
});
