import { HardhatError } from "@nomicfoundation/hardhat-errors";
import { expect } from "chai";
import { network } from "hardhat";

import VipScoreModule from "../ignition/modules/VipScore.js";
import { defined } from "../tasks/errors.js";
import { VipScore__factory } from "../types/ethers-contracts/index.js";

const { ignition, ethers } = await network.create();

describe("Ignition module VipScore", () => {
  it("deploys with the startStage parameter open and the deployer on the allow list", async () => {
    const deployed = await ignition.deploy(VipScoreModule, {
      parameters: { VipScore: { startStage: 42n } },
    });
    const deployer = defined(
      (await ethers.getSigners())[0],
      "(await ethers.getSigners())[0]",
    );
    const vipScore = VipScore__factory.connect(
      await deployed.vipScore.getAddress(),
      deployer,
    );
    expect(await vipScore.initStage()).to.equal(42n);
    expect(await vipScore.openStage()).to.equal(42n);
    expect(await vipScore.allowList(deployer.address)).to.equal(true);
  });

  it("refuses to deploy without a start stage", async () => {
    let error: unknown;
    try {
      await ignition.deploy(VipScoreModule, {});
    } catch (e) {
      error = e;
    }
    // Ignition's deployment error, holding its validation error (a module
    // parameter without a value) for the parameter.
    expect(
      HardhatError.isHardhatError(
        error,
        HardhatError.ERRORS.IGNITION.INTERNAL.DEPLOYMENT_ERROR,
      ),
      String(error),
    ).to.equal(true);
    const missing =
      HardhatError.ERRORS.IGNITION.VALIDATION.MISSING_MODULE_PARAMETER;
    expect(String(error)).to.include(`HHE${missing.number}`);
    expect(String(error)).to.include("'startStage'");
  });
});
