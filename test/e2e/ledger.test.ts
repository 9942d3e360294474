import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { Wallet } from "ethers";

import { ERRORS } from "../../tasks/error-catalog.js";
import { defined } from "../../tasks/errors.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import { VipScore__factory } from "../../types/ethers-contracts/index.js";
import { failure } from "../helpers/failure.js";
import { PROJECT_ROOT, runHardhat } from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER_KEY, LEDGER_ADDRESS, LEDGER_KEY } from "../helpers/keys.js";
import { directProvider } from "../helpers/rig.js";

const FAKE_DEVICE = path.join(
  PROJECT_ROOT,
  "test",
  "helpers",
  "fake-ledger-device.ts",
);
const ledgerInstalled = existsSync(
  path.join(PROJECT_ROOT, "node_modules", "@nomicfoundation", "hardhat-ledger"),
);

describe("signing with a Ledger", () => {
  let node: HardhatNode;
  let baseChain: L1RestStandIn;
  let scratch: string;

  before(async () => {
    [node, baseChain] = await Promise.all([
      startHardhatNode(),
      startL1RestStandIn({ stage: 3n }),
    ]);
    scratch = await mkdtemp(path.join(tmpdir(), "vip-ledger-"));
  });

  after(async () => {
    await Promise.all([node.close(), baseChain.close()]);
    await rm(
      path.join(
        PROJECT_ROOT,
        "ignition",
        "deployments",
        `chain-${node.chainId}`,
      ),
      { recursive: true, force: true },
    );
    await rm(path.join(PROJECT_ROOT, "vip-journal", `chain-${node.chainId}`), {
      recursive: true,
      force: true,
    });
    await rm(scratch, { recursive: true, force: true });
  });

  if (!ledgerInstalled) {
    it("is refused with what to install when Ledger support is missing", async () => {
      const result = await runHardhat(["stage", "--network", "rollup"], {
        JSON_RPC_URL: node.url,
        LEDGER_ACCOUNT: LEDGER_ADDRESS,
      });
      expect(result.code).to.not.equal(0);
      expect(
        failure(result, ERRORS.CONFIG.TOOLS.LEDGER_NOT_INSTALLED),
      ).to.include("LEDGER_ACCOUNT");
    });
    return;
  }

  it("signs scores:update and stage:finalize on the device, with no private key anywhere", async () => {
    const deploy = await runHardhat(
      ["contract:deploy", "--network", "rollup"],
      {
        JSON_RPC_URL: node.url,
        PRIVATE_KEY: DEPLOYER_KEY,
        START_STAGE: "3",
      },
    );
    expect(deploy.code, deploy.output).to.equal(0);
    const address = defined(
      defined(
        /VipScore at (0x[0-9a-fA-F]{40})/.exec(deploy.stdout),
        "/VipScore at (0x[0-9a-fA-F]{40})/.exec(deploy.stdout)",
      )[1],
      "defined(/VipScore at (0x[0-9a-fA-F]{40})/.exec(deploy.std...",
    );
    const provider = directProvider(node);
    const admin = VipScore__factory.connect(
      address,
      new Wallet(DEPLOYER_KEY, provider),
    );
    await (await admin.addAllowList(LEDGER_ADDRESS)).wait();

    const deviceLog = path.join(scratch, "device.log");
    const file = path.join(PROJECT_ROOT, "scripts", "sample-scores.csv");
    // The process has no PRIVATE_KEY at all: only the (fake) device can sign.
    const ledgerEnv = {
      JSON_RPC_URL: node.url,
      // stage:finalize reads the stage's end from the base chain.
      L1_REST_URL: baseChain.url,
      LEDGER_ACCOUNT: LEDGER_ADDRESS,
      FAKE_LEDGER_KEY: LEDGER_KEY,
      FAKE_LEDGER_LOG: deviceLog,
    };
    const withDevice = { nodeOptions: `--import ${FAKE_DEVICE}` };

    const update = await runHardhat(
      ["scores:update", "--network", "rollup", "--stage", "3", "--file", file],
      ledgerEnv,
      withDevice,
    );
    expect(update.code, update.output).to.equal(0);
    // Past the stage's end on the base chain's clock: stage:finalize refuses
    // an open stage earlier.
    baseChain.state.now = baseChain.state.stageEndTime + 1n;
    const finalize = await runHardhat(
      ["stage:finalize", "--network", "rollup", "--stage", "3"],
      ledgerEnv,
      withDevice,
    );
    expect(finalize.code, finalize.output).to.equal(0);
    expect(finalize.stdout).to.match(/^open stage\s+4$/m);

    const hash = defined(
      defined(
        /in tx (0x[0-9a-f]{64})/.exec(finalize.stdout),
        "/in tx (0x[0-9a-f]{64})/.exec(finalize.stdout)",
      )[1],
      'defined(/in tx (0x[0-9a-f]{64})/.exec(finalize.stdout), "...',
    );
    expect(
      defined(
        await provider.getTransaction(hash),
        "(await provider.getTransaction(hash))",
      ).from,
    ).to.equal(LEDGER_ADDRESS);
    expect(await admin.openStage()).to.equal(4n);
    expect((await admin.stages(3n)).totalScore).to.be.greaterThan(0n);

    const requests = (await readFile(deviceLog, "utf8")).trim().split("\n");
    // Every batch of the 1,000-address sample, then the finalization: each an
    // EIP-1559 transaction signed on the device. (The derivation path may come
    // from hardhat-ledger's cache, so GET_ADDRESS is not always asked.)
    const batches = Number(
      defined(
        /^sent\s+1,000 addresses in (\d+) batch(?:es)?/m.exec(update.stdout),
        "/^sent\\s+1,000 addresses in (\\d+) batch(?:es)?/m.exec(upda...",
      )[1],
    );
    expect(batches).to.be.greaterThan(1);
    const signed = requests.filter(
      (r) => r === "SIGN_TRANSACTION m/44'/60'/0'/0/0 type 2",
    );
    expect(signed.length, requests.join("\n")).to.equal(batches + 1);
    expect(
      requests.filter(
        (r) => r.startsWith("UNSUPPORTED") || r.includes("refused"),
      ),
    ).to.deep.equal([]);
  });
});
