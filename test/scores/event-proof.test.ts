import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { network } from "hardhat";

import {
  deployVipScore,
  sampleAddresses,
} from "../../scripts/gas/scenarios.js";
import { ERRORS } from "../../tasks/error-catalog.js";
import { defined } from "../../tasks/errors.js";
import { readScoreFile } from "../../tasks/scores/read.js";
import { runScoresUpdate } from "../../tasks/scores/update.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
import { refusal } from "../helpers/failure.js";

const { ethers } = await network.create();
const provider = ethers.provider;

const STAGE = 5n;
const COUNT = 300;
const BATCH = 100;

/**
 * The node's provider, watched: reader calls (an eth_call with no `to`, the
 * reader's creation code) are counted, and `beforeSend` runs before each
 * eth_sendTransaction (its 1-based number), which it may refuse by throwing.
 */
function watchProvider(beforeSend?: (n: number) => Promise<void>) {
  const counts = { readerCalls: 0, sends: 0 };
  const call = provider.call.bind(provider);
  const send = provider.send.bind(provider);
  let inside = false;
  provider.call = (tx) => {
    if (tx.to === undefined || tx.to === null) counts.readerCalls++;
    return call(tx);
  };
  provider.send = async (method, params) => {
    if (method === "eth_sendTransaction" && !inside) {
      counts.sends++;
      inside = true; // a write `beforeSend` makes is not counted
      try {
        await beforeSend?.(counts.sends);
      } finally {
        inside = false;
      }
    }
    return send(method, params);
  };
  const restore = () => {
    provider.call = call;
    provider.send = send;
  };
  return { counts, restore };
}

describe("scores:update proves the push by its events", () => {
  let dir: string;
  let file: string;
  const addresses = sampleAddresses(COUNT, "event-proof");

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-event-proof-"));
    file = path.join(dir, "scores.csv");
    await writeFile(
      file,
      "address,score\n" +
        addresses.map((a, i) => `${a},${i + 1}`).join("\n") +
        "\n",
    );
  });

  after(() => rm(dir, { recursive: true, force: true }));

  /** Runs the push of the file to `score`, its output lines into `lines`. */
  async function update(
    score: VipScore,
    journalDir: string,
    lines: string[] = [],
    fullReadBack = false,
  ): Promise<string[]> {
    const [signer] = await ethers.getSigners();
    await runScoresUpdate(
      score,
      defined(signer, "the node's first account"),
      await readScoreFile(file),
      {
        stage: STAGE,
        network: "default",
        dryRun: false,
        journalDir,
        replace: false,
        skipUnchanged: false,
        maxInFlight: 0,
        maxBatchSize: BATCH,
        fullReadBack,
        intent: "final",
      },
      { line: (text) => lines.push(text), warn: (text) => lines.push(text) },
    );
    return lines;
  }

  /** `update` with the provider watched: its reader calls and sends counted. */
  async function watchedUpdate(
    score: VipScore,
    journalDir: string,
    fullReadBack = false,
  ): Promise<{
    counts: { readerCalls: number; sends: number };
    lines: string[];
  }> {
    const { counts, restore } = watchProvider();
    try {
      return {
        counts,
        lines: await update(score, journalDir, [], fullReadBack),
      };
    } finally {
      restore();
    }
  }

  const proofLine = (lines: string[]) =>
    lines.find((l) => l.startsWith("proof")) ?? "";

  it("proves a fresh push from its receipts alone: no reader call", async () => {
    const score = await deployVipScore(ethers, STAGE);
    const { counts, lines } = await watchedUpdate(
      score,
      path.join(dir, "fresh"),
    );
    expect(counts.sends).to.equal(COUNT / BATCH);
    expect(counts.readerCalls).to.equal(0);
    expect(proofLine(lines)).to.match(
      /^proof\s+300 scores? by this run's UpdateScore events, 0 read back; /,
    );
    expect(
      lines.some((l) => /^verified\s+300 scores on chain equal /.test(l)),
    ).to.equal(true);
    expect(await score.scoreCount(STAGE)).to.equal(BigInt(COUNT));
  });

  it("catches another writer whose changes keep the stage's count and total, and names both scores", async () => {
    const score = await deployVipScore(ethers, STAGE);
    const [, other] = await ethers.getSigners();
    const intruder = defined(other, "a second account");
    await (await score.addAllowList(intruder.address)).wait();
    const first = defined(addresses[0], "addresses[0]");
    const second = defined(addresses[1], "addresses[1]");
    // After the first batch (lines 2 and 3 scored 1 and 2), before the second:
    // one score up, one down, so count and total still equal the file's.
    const { restore } = watchProvider(async (n) => {
      if (n === 2)
        await (
          await score
            .connect(intruder)
            .updateScores(STAGE, [first, second], [2n, 1n])
        ).wait();
    });
    const lines: string[] = [];
    const error = await refusal(
      update(score, path.join(dir, "compensated"), lines).finally(restore),
      ERRORS.SCORES.PUSH.CHAIN_DIFFERS,
    );
    expect(error.params.count).to.equal(2);
    const named = String(error.params.differences).toLowerCase();
    expect(named).to.include(first.toLowerCase());
    expect(named).to.include(second.toLowerCase());
    expect(proofLine(lines)).to.match(
      /do not prove the file \(transaction 0x[0-9a-f]{64} \(not of this push\) wrote scores of stage 5\)/,
    );
  });

  it("catches an address another writer scored before the push: the stage's count differs, the address is named", async () => {
    const score = await deployVipScore(ethers, STAGE);
    const stranger = "0x00000000000000000000000000000000000000aa";
    await (await score.updateScores(STAGE, [stranger], [3n])).wait();
    const lines: string[] = [];
    const error = await refusal(
      update(score, path.join(dir, "stranger"), lines),
      ERRORS.SCORES.PUSH.CHAIN_DIFFERS,
    );
    expect(error.params.count).to.equal(1);
    expect(String(error.params.differences).toLowerCase()).to.include(stranger);
    expect(proofLine(lines)).to.match(
      /the stage holds 301 addresses, the file 300/,
    );
  });

  it("proves a resumed run: the batches an earlier run confirmed are read back, the others by their events", async () => {
    const score = await deployVipScore(ethers, STAGE);
    const journalDir = path.join(dir, "resumed");
    // The first run stops at its third send, two batches confirmed.
    const stopped = watchProvider(async (n) => {
      if (n === 3) throw new Error("refused by the test");
    });
    await refusal(
      update(score, journalDir).finally(stopped.restore),
      ERRORS.SCORES.PUSH.PUSH_STOPPED,
    );
    expect(await score.scoreCount(STAGE)).to.equal(BigInt(2 * BATCH));

    const { counts, lines } = await watchedUpdate(score, journalDir);
    expect(counts.sends).to.equal(1);
    // One for the gas model (the stage is not empty: what each entry would do),
    // one for the 200 entries no event of this run proved.
    expect(counts.readerCalls).to.equal(2);
    expect(proofLine(lines)).to.match(
      /^proof\s+100 scores? by this run's UpdateScore events, 200 read back; /,
    );
    expect(
      lines.some((l) => /^verified\s+300 scores on chain equal /.test(l)),
    ).to.equal(true);
  });

  it("reads every score back with fullReadBack, and names a difference as before", async () => {
    const score = await deployVipScore(ethers, STAGE);
    const { counts, lines } = await watchedUpdate(
      score,
      path.join(dir, "full"),
      true,
    );
    expect(counts.readerCalls).to.be.greaterThan(0);
    expect(proofLine(lines)).to.equal("");
    expect(
      lines.some((l) => /^verified\s+300 scores on chain equal /.test(l)),
    ).to.equal(true);

    const victim = defined(addresses[COUNT - 1], "the last address");
    await (await score.updateScores(STAGE, [victim], [7n])).wait();
    const error = await refusal(
      update(score, path.join(dir, "full"), [], true),
      ERRORS.SCORES.PUSH.CHAIN_DIFFERS,
    );
    expect(error.params.count).to.equal(1);
    expect(error.params.differences).to.match(
      new RegExp(`scores\\.csv:301: ${victim}: file 300, chain 7$`, "i"),
    );
  });
});
