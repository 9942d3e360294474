import { expect } from "chai";
import { network } from "hardhat";

import { estimateSendAndConfirm, sendAndConfirm } from "../../tasks/contract/confirm.js";
import { deployVipScore } from "../../scripts/gas/scenarios.js";

// A node that mines failing transactions instead of refusing them, as a rollup node does.
const { ethers } = await network.create({ network: "default", override: { throwOnTransactionFailures: false } });

describe("sending contract calls", () => {
  it("reports a receipt whose status is not success as `Tx failed <hash>`", async () => {
    const score = await deployVipScore(ethers, 5n);
    let message = "";
    try {
      // An explicit gas limit skips the estimate, so the failing call is mined.
      await sendAndConfirm("finalizeStage(9)", () => score.finalizeStage(9n, { gasLimit: 100_000n }));
    } catch (error) {
      message = (error as Error).message;
    }
    const block = await ethers.provider.getBlock("latest");
    const hash = block!.transactions[0]!;
    expect((await ethers.provider.getTransactionReceipt(hash))!.status).to.equal(0);
    expect(message).to.match(new RegExp(`^Tx failed ${hash}`));
  });

  it("names the contract's reason when the estimate refuses a call, and sends nothing", async () => {
    const score = await deployVipScore(ethers, 5n);
    const before = await ethers.provider.getBlockNumber();
    let message = "";
    try {
      await estimateSendAndConfirm(
        "finalizeStage(9)",
        ethers.provider,
        () => score.finalizeStage.estimateGas(9n),
        (overrides) => score.finalizeStage(9n, overrides),
      );
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).to.equal("finalizeStage(9) was refused by the node, nothing was sent: StageNotFound(9)");
    expect(await ethers.provider.getBlockNumber()).to.equal(before);
  });
});
