import { readFile } from "node:fs/promises";
import path from "node:path";

import { expect } from "chai";
import type { JsonRpcProvider } from "ethers";

import { ERRORS } from "../../tasks/error-catalog.js";
import { journalPath } from "../../tasks/journal/journal.js";
import { failure } from "../helpers/failure.js";
import type { FaultProxy } from "../helpers/fault-proxy.js";
import { PROJECT_ROOT, runHardhat } from "../helpers/hardhat-cli.js";
import type { HardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER, DEPLOYER_KEY } from "../helpers/keys.js";
import {
  deployVipScore,
  type FaultyRig,
  startFaultyRig,
} from "../helpers/rig.js";

const SAMPLE = path.join(PROJECT_ROOT, "scripts", "sample-scores.csv");

describe("scores:update through a faulty RPC", () => {
  let rig: FaultyRig;
  let node: HardhatNode;
  let proxy: FaultProxy;
  let provider: JsonRpcProvider;
  let journalDir: string;

  before(async () => {
    rig = await startFaultyRig();
    ({ node, proxy, provider, journalDir } = rig);
  });

  after(async () => rig.close());

  beforeEach(() => (proxy.rules.length = 0));

  const deploy = (stage: bigint) => deployVipScore(provider, stage);

  const update = (contract: string, stage: string) =>
    runHardhat(
      [
        "scores:update",
        "--network",
        "rollup",
        "--stage",
        stage,
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
      ],
      { JSON_RPC_URL: proxy.url, PRIVATE_KEY: DEPLOYER_KEY },
    );

  it("completes through resets, rate limits, 5xx, slow answers and lost answers, sending each batch once", async () => {
    const score = await deploy(7n);
    const address = await score.getAddress();
    proxy.rules.push(
      // The push estimates once (its first batch checks the gas model): that
      // estimate meets two resets.
      { method: "eth_estimateGas", fault: "reset", times: 2 },
      { method: "eth_getTransactionReceipt", fault: "429", times: 3 },
      { method: "eth_call", fault: "503", times: 2, after: 2 },
      {
        method: "eth_sendRawTransaction",
        fault: "slow",
        times: 1,
        delayMs: 1500,
      },
      {
        method: "eth_sendRawTransaction",
        fault: "lose-answer",
        times: 2,
        after: 1,
      },
      { method: "eth_getBlockByNumber", fault: "reset", times: 1, after: 3 },
    );
    const nonceBefore = await provider.getTransactionCount(DEPLOYER);

    const result = await update(address, "7");

    expect(result.code, result.output).to.equal(0);
    expect(result.stdout).to.match(/^verified\s+1,000 scores on chain equal /m);
    for (const fault of ["reset", "429", "503", "slow", "lose-answer"])
      expect(proxy.injected[fault], fault).to.be.greaterThan(0);
    expect(result.stderr).to.match(/retrying \(\d+ left\)/);
    // Ten batches of 100, each sent exactly once: lost answers were found by
    // nonce, not sent again.
    expect(
      (await provider.getTransactionCount(DEPLOYER)) - nonceBefore,
    ).to.equal(10);
    const journal = (
      await readFile(
        path.join(
          journalDir,
          `chain-${node.chainId}`,
          address.toLowerCase(),
          "stage-7.jsonl",
        ),
        "utf8",
      )
    )
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; status?: number });
    expect(
      journal.filter((r) => r.type === "confirmed" && r.status === 1),
    ).to.have.length(10);
    expect(journal.filter((r) => r.type === "dropped")).to.have.length(0);
    expect(journal.at(-1)).to.include({ type: "verified", differences: 0 });
  });

  it("stops after bounded retries, says how to resume, and the resumed run ends in the same state", async () => {
    const score = await deploy(9n);
    const address = await score.getAddress();
    proxy.rules.push({
      method: "eth_sendRawTransaction",
      fault: "503",
      times: Infinity,
      after: 3,
    });

    const failed = await update(address, "9");

    const stopped = failure(failed, ERRORS.SCORES.PUSH.PUSH_STOPPED);
    // The batch and the attempts, as the reason (a SEND_FAILED) names them;
    // the journal that lets the run resume on the message's next line.
    expect(stopped).to.include("batch 4");
    expect(stopped).to.include("6 attempts");
    expect(failed.output).to.include(
      journalPath(journalDir, node.chainId, address, 9n),
    );
    expect(await score.scoreCount(9n)).to.equal(300n);

    proxy.rules.length = 0;
    const resumed = await update(address, "9");
    expect(resumed.code, resumed.output).to.equal(0);
    expect(resumed.stdout).to.match(
      /^journal\s+.*stage-9\.jsonl: resuming, 3 of 4 recorded batch(?:es)? confirmed$/m,
    );
    expect(resumed.stdout).to.match(
      /^verified\s+1,000 scores on chain equal /m,
    );
    expect(await score.scoreCount(9n)).to.equal(1000n);
  });
});
