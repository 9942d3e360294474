import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { IGNITION_FUTURE_ID } from "../../tasks/config/constants.js";
import { deployedAddress } from "../../tasks/contract/deployment.js";
import { ERRORS } from "../../tasks/error-catalog.js";
import { refusal } from "../helpers/failure.js";
import { OUTSIDER } from "../helpers/keys.js";

describe("Ignition's record of a deployment (deployed_addresses.json)", () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-deployment-"));
    file = path.join(dir, "deployed_addresses.json");
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("gives the recorded address; none without a file or without the VipScore entry", async () => {
    expect(await deployedAddress(dir)).to.equal(undefined);
    await writeFile(file, JSON.stringify({ "Other#Other": OUTSIDER }));
    expect(await deployedAddress(dir)).to.equal(undefined);
    await writeFile(file, JSON.stringify({ [IGNITION_FUTURE_ID]: OUTSIDER }));
    expect(await deployedAddress(dir)).to.equal(OUTSIDER);
  });

  it("refuses a record cut short, naming the file and where the JSON breaks", async () => {
    await writeFile(file, `{\n  "${IGNITION_FUTURE_ID}": "0x5FbDB23`);
    const error = await refusal(
      deployedAddress(dir),
      ERRORS.CONTRACT.DEPLOYMENT.DEPLOYMENT_RECORD_UNREADABLE,
    );
    expect(error.params.file).to.equal(file);
    expect(error.message).to.include(file);
    expect(error.message).to.match(/JSON|position/);
    expect(error.message).to.include("--contract");
  });

  it("refuses a record whose VipScore entry is not an address, the value cut", async () => {
    const long = `0x12${"z".repeat(300)}`;
    await writeFile(file, JSON.stringify({ [IGNITION_FUTURE_ID]: long }));
    const error = await refusal(
      deployedAddress(dir),
      ERRORS.CONTRACT.DEPLOYMENT.DEPLOYMENT_RECORD_UNREADABLE,
    );
    expect(error.message).to.include(`its ${IGNITION_FUTURE_ID} is "0x12zz`);
    expect(error.message).to.include("not an address");
    expect(error.message).to.include("more characters");
    expect(error.message).to.not.include(long);
  });
});
