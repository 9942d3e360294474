import { rm } from "node:fs/promises";
import path from "node:path";

import { expect } from "chai";
import { Wallet } from "ethers";

import { ERRORS, type ErrorDescriptor } from "../../tasks/error-catalog.js";
import { failure } from "../helpers/failure.js";
import { PROJECT_ROOT, runHardhat } from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER_KEY } from "../helpers/keys.js";
import { deployVipScore, directProvider } from "../helpers/rig.js";

/** No run of 8 characters of `key` (without 0x) may appear in `output`. */
function assertNoPartOf(key: string, output: string): void {
  const digits = key.replace(/^0x/i, "").trim().toLowerCase();
  const text = output.toLowerCase();
  for (let i = 0; i + 8 <= digits.length; i++) {
    expect(
      text.includes(digits.slice(i, i + 8)),
      `part of the key at ${i} printed`,
    ).to.equal(false);
  }
}

describe("the signer is checked before anything else", () => {
  let node: HardhatNode;

  before(async () => {
    node = await startHardhatNode();
  });

  after(async () => {
    await node.close();
    await rm(
      path.join(
        PROJECT_ROOT,
        "ignition",
        "deployments",
        `chain-${node.chainId}`,
      ),
      { recursive: true, force: true },
    );
  });

  const deployWith = (key: string) =>
    runHardhat(["contract:deploy", "--network", "rollup"], {
      JSON_RPC_URL: node.url,
      PRIVATE_KEY: key,
      START_STAGE: "3",
    });

  it("refuses a malformed key by its variable's name, echoes none of it, and sends nothing", async () => {
    const provider = directProvider(node);
    const blockBefore = await provider.getBlockNumber();
    const hex = DEPLOYER_KEY.slice(2);
    // Each key, the error it meets, and the values its message names: the
    // variable, and the digits counted or the kinds of characters found.
    const cases: [string, ErrorDescriptor, string[]][] = [
      [`0x${hex}a`, ERRORS.CONTRACT.ACCOUNTS.KEY_LENGTH, [" 65 "]],
      [
        `${hex.slice(0, 63)} `,
        ERRORS.CONTRACT.ACCOUNTS.KEY_NOT_HEX,
        ["(whitespace)"],
      ],
      [`0x${hex.slice(0, 63)}`, ERRORS.CONTRACT.ACCOUNTS.KEY_LENGTH, [" 63 "]],
      [`0x${"0".repeat(64)}`, ERRORS.CONTRACT.ACCOUNTS.KEY_OUT_OF_RANGE, []],
      [`0x${"f".repeat(64)}`, ERRORS.CONTRACT.ACCOUNTS.KEY_OUT_OF_RANGE, []],
      [
        `0x${hex.slice(0, 30)}"${hex.slice(31)}`,
        ERRORS.CONTRACT.ACCOUNTS.KEY_NOT_HEX,
        ["(non-hex characters)"],
      ],
    ];
    for (const [key, expected, values] of cases) {
      const result = await deployWith(key);
      const message = failure(result, expected);
      for (const value of ["PRIVATE_KEY:", ...values])
        expect(message, JSON.stringify(key.length)).to.include(value);
      if (!/^0x[0f]{64}$/.test(key)) assertNoPartOf(key, result.output);
      expect(result.output).to.not.include("Field.fromBytes");
      expect(result.output).to.not.include("RangeError");
    }
    expect(await provider.getBlockNumber(), "nothing was sent").to.equal(
      blockBefore,
    );
  });

  it("names a signer short of funds, with its balance and the cost, and sends nothing", async () => {
    const provider = directProvider(node);
    const poor = Wallet.createRandom();
    const blockBefore = await provider.getBlockNumber();
    const deploy = await deployWith(poor.privateKey);
    expect(deploy.stdout).to.include(
      `signer                ${poor.address} (init1`,
    );
    const poorDeploy = failure(
      deploy,
      ERRORS.CONTRACT.ACCOUNTS.INSUFFICIENT_FUNDS,
    );
    expect(poorDeploy).to.include(poor.address);
    expect(poorDeploy).to.include("VipScore");
    expect(poorDeploy).to.include("(0 wei)");
    expect(poorDeploy).to.match(/\([1-9]\d* wei\)/);
    assertNoPartOf(poor.privateKey, deploy.output);

    // On the allow list, but without funds: stage:finalize is refused the same
    // way.
    const score = await deployVipScore(provider, 3n);
    await (await score.addAllowList(poor.address)).wait();
    const before = await provider.getBlockNumber();
    const finalize = await runHardhat(
      [
        "stage:finalize",
        "--network",
        "rollup",
        "--stage",
        "3",
        "--contract",
        await score.getAddress(),
        // No base chain here: --force finalizes without its clock (warned).
        "--force",
      ],
      {
        JSON_RPC_URL: node.url,
        PRIVATE_KEY: poor.privateKey,
      },
    );
    const poorFinalize = failure(
      finalize,
      ERRORS.CONTRACT.ACCOUNTS.INSUFFICIENT_FUNDS,
    );
    expect(poorFinalize).to.include(poor.address);
    expect(poorFinalize).to.include("finalizeStage(3)");
    expect(poorFinalize).to.include("(0 wei)");
    expect(await provider.getBlockNumber()).to.equal(before);
    expect(blockBefore).to.be.lessThan(before);
  });

  it("prints the signer, in both spellings, before it sends", async () => {
    const deploy = await deployWith(DEPLOYER_KEY);
    expect(deploy.code, deploy.output).to.equal(0);
    const lines = deploy.stdout.split("\n");
    const signerLine = lines.findIndex((l) => l.startsWith("signer"));
    expect(lines[signerLine]).to.equal(
      "signer                0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 (init17w0adeg64ky0daxwd2ugyuneellmjgnxdtmpqz, PRIVATE_KEY)",
    );
    expect(signerLine).to.be.lessThan(
      lines.findIndex((l) => l.startsWith("deployed")),
    );
  });
});
