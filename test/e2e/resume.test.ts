import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";

import { expect } from "chai";
import type { JsonRpcProvider } from "ethers";

import { defined } from "../../tasks/errors.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
import type { FaultProxy } from "../helpers/fault-proxy.js";
import {
  type CliResult,
  PROJECT_ROOT,
  runHardhat,
  spawnHardhat,
} from "../helpers/hardhat-cli.js";
import type { HardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER, DEPLOYER_KEY } from "../helpers/keys.js";
import {
  deployVipScore,
  type FaultyRig,
  startFaultyRig,
} from "../helpers/rig.js";

const SAMPLE = path.join(PROJECT_ROOT, "scripts", "sample-scores.csv");
const BATCHES = 10; // the 1,000-line sample in batches of 100

interface Record {
  type: string;
  status?: number;
}

describe("scores:update killed (SIGKILL) and run again", () => {
  let rig: FaultyRig;
  let node: HardhatNode;
  let proxy: FaultProxy;
  let provider: JsonRpcProvider;
  let journalDir: string;
  let stage = 20n;

  before(async () => {
    rig = await startFaultyRig();
    ({ node, proxy, provider, journalDir } = rig);
  });

  after(async () => rig.close());

  beforeEach(() => {
    proxy.rules.length = 0;
    stage++;
  });

  const deploy = () => deployVipScore(provider, stage);

  const args = (contract: string) => [
    "scores:update",
    "--network",
    "rollup",
    "--stage",
    String(stage),
    "--file",
    SAMPLE,
    "--contract",
    contract,
    "--batch-size",
    "100",
    "--max-in-flight",
    "3",
    "--journal-dir",
    journalDir,
  ];
  const env = () => ({ JSON_RPC_URL: proxy.url, PRIVATE_KEY: DEPLOYER_KEY });

  async function journal(contract: string): Promise<Record[]> {
    const file = path.join(
      journalDir,
      `chain-${node.chainId}`,
      contract.toLowerCase(),
      `stage-${stage}.jsonl`,
    );
    if (!existsSync(file)) return [];
    return (await readFile(file, "utf8")).split("\n").flatMap((line) => {
      try {
        return line.trim() === "" ? [] : [JSON.parse(line) as Record];
      } catch {
        return []; // torn by the kill
      }
    });
  }

  /** Starts a run, waits for `when`, kills it with SIGKILL. */
  async function killWhen(
    contract: string,
    when: () => Promise<boolean>,
  ): Promise<void> {
    const { child, result } = spawnHardhat(args(contract), env());
    const deadline = Date.now() + 90_000;
    while (!(await when())) {
      if (child.exitCode !== null)
        throw new Error(
          `the run ended before the kill point:\n${(await result).output}`,
        );
      if (Date.now() > deadline)
        throw new Error("the kill point was never reached");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill("SIGKILL");
    const killed = await result;
    expect(killed.code).to.equal(null);
  }

  /**
   * Runs again without faults; asserts the chain holds exactly the file and
   * each batch went out once.
   */
  async function resume(
    score: VipScore,
    nonceBefore: number,
  ): Promise<CliResult> {
    proxy.rules.length = 0;
    const resumed = await runHardhat(args(await score.getAddress()), env());
    expect(resumed.code, resumed.output).to.equal(0);
    expect(resumed.stdout).to.match(/^journal\s+.*: resuming, /m);
    expect(resumed.stdout).to.match(
      /^verified\s+1,000 scores on chain equal /m,
    );
    // Proved without the full read-back: the entries no event of this run
    // proved (an earlier run confirmed them) are read back, the rest by events.
    expect(resumed.stdout).to.match(
      /^proof\s+[\d,]+ scores? by this run's UpdateScore events, [\d,]+ read back; the stage's count and total equal the file's at block \d+$/m,
    );
    expect(await score.scoreCount(stage)).to.equal(1000n);
    expect(
      (await provider.getTransactionCount(DEPLOYER)) - nonceBefore,
      "transactions sent",
    ).to.equal(BATCHES);
    const records = await journal(await score.getAddress());
    expect(
      new Set(
        records
          .filter((r) => r.type === "confirmed" && r.status === 1)
          .map((r) => (r as { batch?: number }).batch),
      ).size,
    ).to.equal(BATCHES);
    return resumed;
  }

  it("after some batches are confirmed: those are not sent again", async () => {
    const score = await deploy();
    const address = await score.getAddress();
    const nonceBefore = await provider.getTransactionCount(DEPLOYER);
    proxy.rules.push({
      method: "eth_sendRawTransaction",
      fault: "slow",
      times: Infinity,
      delayMs: 300,
    });
    await killWhen(
      address,
      async () =>
        (await journal(address)).filter((r) => r.type === "confirmed").length >=
        3,
    );
    const confirmedBefore = (await journal(address)).filter(
      (r) => r.type === "confirmed",
    ).length;
    const resumed = await resume(score, nonceBefore);
    expect(resumed.stdout).to.include(`resuming, ${confirmedBefore} of`);
    // The batches the killed run confirmed are proved by reading them back.
    const readBack = /events, ([\d,]+) read back/.exec(resumed.stdout);
    expect(
      Number(defined(readBack?.[1], "the proof line").replace(/,/g, "")),
    ).to.be.at.least(confirmedBefore * 100);
  });

  it("after a transaction reached the node but before its answer: it is found by nonce, not sent again", async () => {
    const score = await deploy();
    const address = await score.getAddress();
    const nonceBefore = await provider.getTransactionCount(DEPLOYER);
    proxy.rules.push({
      method: "eth_sendRawTransaction",
      fault: "hold-answer",
      times: 1,
      after: 2,
    });
    let held = false;
    void proxy.held().then(() => (held = true));
    await killWhen(address, async () => held);
    // The kill came between "sending" and "sent" for the held batch (other
    // batches may have confirmed since).
    const records = (await journal(address)) as (Record & { batch?: number })[];
    const unsent = records.filter(
      (r) =>
        r.type === "sending" &&
        !records.some((s) => s.type === "sent" && s.batch === r.batch),
    );
    expect(unsent, "batches journalled as sending but not sent").to.have.length(
      1,
    );
    // Found after the restart: the held batch (by its nonce) and any sent batch
    // whose receipt the kill preempted.
    const unconfirmed = records.filter(
      (r) =>
        r.type === "sent" &&
        !records.some((c) => c.type === "confirmed" && c.batch === r.batch),
    ).length;
    const resumed = await resume(score, nonceBefore);
    expect(resumed.stdout).to.match(
      new RegExp(
        `\\(\\d+ sent by this run, ${1 + unconfirmed} found after a restart\\)`,
      ),
    );
  });

  it("before a transaction reached the node: it is sent again", async () => {
    const score = await deploy();
    const address = await score.getAddress();
    const nonceBefore = await provider.getTransactionCount(DEPLOYER);
    proxy.rules.push({
      method: "eth_sendRawTransaction",
      fault: "hold-request",
      times: 1,
      after: 2,
    });
    let held = false;
    void proxy.held().then(() => (held = true));
    await killWhen(address, async () => held);
    await resume(score, nonceBefore);
    const dropped = (await journal(address)).filter(
      (r) => r.type === "dropped",
    );
    expect(dropped).to.have.length(1);
    expect(dropped[0]).to.deep.include({
      reason: `nonce ${nonceBefore + 2} was never broadcast`,
    });
  });

  it("while its transactions wait in the mempool: they are waited for, not sent again", async () => {
    const score = await deploy();
    const address = await score.getAddress();
    const nonceBefore = await provider.getTransactionCount(DEPLOYER);
    await provider.send("evm_setAutomine", [false]);
    try {
      await killWhen(
        address,
        async () =>
          (await journal(address)).filter((r) => r.type === "sent").length >= 3,
      );
      expect(
        (await journal(address)).filter((r) => r.type === "confirmed"),
      ).to.have.length(0);
      // Blocks resume while the second run waits for the pending transactions.
      setTimeout(
        () =>
          void provider
            .send("evm_setAutomine", [true])
            .then(() => provider.send("evm_mine", [])),
        2000,
      );
      const resumed = await resume(score, nonceBefore);
      expect(resumed.stdout).to.match(
        /\(7 sent by this run, 3 found after a restart\)/,
      );
    } finally {
      await provider.send("evm_setAutomine", [true]);
    }
  });
});
