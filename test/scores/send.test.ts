import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { network } from "hardhat";

import {
  deployVipScore,
  sampleAddresses,
} from "../../scripts/gas/scenarios.js";
import {
  estimateSendAndConfirm,
  sendAndConfirm,
} from "../../tasks/contract/confirm.js";
import { ERRORS } from "../../tasks/error-catalog.js";
import { defined, isVipError } from "../../tasks/errors.js";
import {
  type ConfirmedRecord,
  Journal,
  journalPath,
} from "../../tasks/journal/journal.js";
import { gasLimits } from "../../tasks/scores/batches.js";
import { SAME } from "../../tasks/scores/gas-model.js";
import { pushScores } from "../../tasks/scores/push.js";
import { compareWithChain } from "../../tasks/scores/read-back.js";
import { readScoreFile } from "../../tasks/scores/read.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";

// A node that mines failing transactions instead of refusing them, as a rollup
// node does.
const { ethers } = await network.create({
  network: "default",
  override: { throwOnTransactionFailures: false },
});

/**
 * A score file of `addresses` (scores 1, 2, …) in `dir`, and a fresh journal
 * for `score`'s stage 5 started on it.
 */
async function pushSetup(
  dir: string,
  score: VipScore,
  signer: string,
  addresses: string[],
) {
  const file = path.join(dir, "scores.csv");
  await writeFile(
    file,
    "address,score\n" +
      addresses.map((a, i) => `${a},${i + 1}`).join("\n") +
      "\n",
  );
  const scores = await readScoreFile(file);
  const journal = await Journal.open(
    journalPath(dir, 31337n, await score.getAddress(), 5n),
  );
  const startBlock = await ethers.provider.getBlockNumber();
  await journal.append({
    type: "start",
    chainId: "31337",
    contract: await score.getAddress(),
    stage: "5",
    signer,
    file,
    sha256: scores.sha256,
    entries: addresses.length,
    startBlock,
    at: "",
  });
  return { scores, journal };
}

describe("sending contract calls", () => {
  it("stops a push at a batch mined with a failed receipt: Tx failed <hash>, recorded in the journal", async () => {
    const [operator, other] = await ethers.getSigners();
    const score = await deployVipScore(ethers, 5n);
    await (await score.addAllowList(defined(other, "other").address)).wait();
    const dir = await mkdtemp(path.join(tmpdir(), "vip-failed-receipt-"));
    try {
      const file = path.join(dir, "scores.csv");
      await writeFile(
        file,
        "address,score\n" +
          sampleAddresses(20, "race")
            .map((a) => `${a},1`)
            .join("\n") +
          "\n",
      );
      const scores = await readScoreFile(file);
      const journal = await Journal.open(
        journalPath(dir, 31337n, await score.getAddress(), 5n),
      );
      await journal.append({
        type: "start",
        chainId: "31337",
        contract: await score.getAddress(),
        stage: "5",
        signer: defined(operator, "operator").address,
        file,
        sha256: scores.sha256,
        entries: 20,
        startBlock: 0,
        at: "",
      });
      const limits = await gasLimits(ethers.provider);
      const silent = { line: () => {}, warn: () => {} };

      // Blocks wait: the batch is estimated and sent, then another operator
      // finalizes the stage with a higher tip, so the same block mines the
      // finalization first and the batch reverts.
      await ethers.provider.send("evm_setAutomine", [false]);
      const push = pushScores(
        {
          score,
          signer: defined(operator, "operator"),
          provider: ethers.provider,
          table: scores.table,
          journal,
          out: silent,
        },
        { stage: 5n, limits, maxInFlight: 1, pollMs: 20 },
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
      while (!journal.records.some((r) => r.type === "sent"))
        await new Promise((resolve) => setTimeout(resolve, 20));
      const fees = await ethers.provider.getFeeData();
      await score.connect(defined(other, "other")).finalizeStage(5n, {
        gasLimit: 100_000n,
        maxFeePerGas: defined(fees.maxFeePerGas, "fees.maxFeePerGas") * 3n,
        maxPriorityFeePerGas:
          defined(fees.maxFeePerGas, "fees.maxFeePerGas") * 2n,
      });
      await ethers.provider.send("evm_mine", []);
      await ethers.provider.send("evm_setAutomine", [true]);

      const error = await push;
      const sent = journal.records.find((r) => r.type === "sent") as {
        hash: string;
      };
      if (!isVipError(error, ERRORS.SCORES.PUSH.BATCH_REVERTED))
        expect.fail(`expected BATCH_REVERTED, got: ${String(error)}`);
      const confirmed = journal.records.find((r) => r.type === "confirmed");
      expect(confirmed).to.deep.include({ hash: sent.hash, status: 0 });
      // Why, from the batch replayed on the state after its block: the
      // finalization that came first in it.
      const why = `: StageFinalized(5), replayed on the state after block ${
        (confirmed as { blockNumber: number }).blockNumber
      }`;
      expect(error.params).to.deep.equal({
        hash: sent.hash,
        batch: "batch 1, lines 2–21",
        why,
      });
      expect(await score.scoreCount(5n)).to.equal(0n);

      // Run again on that journal: stopped the same way, before anything is
      // sent, not left neither sent nor reported.
      const nonce = await ethers.provider.getTransactionCount(
        defined(operator, "operator").address,
      );
      const again = await pushScores(
        {
          score,
          signer: defined(operator, "operator"),
          provider: ethers.provider,
          table: scores.table,
          journal: await Journal.open(journal.path),
          out: silent,
        },
        { stage: 5n, limits, maxInFlight: 1, pollMs: 20 },
      ).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      if (!isVipError(again, ERRORS.SCORES.PUSH.BATCH_REVERTED))
        expect.fail(`expected BATCH_REVERTED again, got: ${String(again)}`);
      expect(again.params.hash).to.equal(sent.hash);
      expect(again.params.why).to.equal(why);
      expect(
        await ethers.provider.getTransactionCount(
          defined(operator, "operator").address,
        ),
      ).to.equal(nonce);
    } finally {
      await ethers.provider.send("evm_setAutomine", [true]);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("sends a batch whose predicted gas was too low again, with the node's estimate, and journals both", async () => {
    const [operator] = await ethers.getSigners();
    const score = await deployVipScore(ethers, 5n);
    const dir = await mkdtemp(path.join(tmpdir(), "vip-out-of-gas-"));
    try {
      const { scores, journal } = await pushSetup(
        dir,
        score,
        defined(operator, "operator").address,
        sampleAddresses(200, "short"),
      );
      const warnings: string[] = [];
      // The model is told the second hundred already hold their scores (as if
      // the stage was read before someone else changed it): the first batch,
      // checked by an estimate, is right; the second is predicted at a sixth of
      // its gas.
      const kinds = new Uint8Array(200).fill(SAME, 100);

      const report = await pushScores(
        {
          score,
          signer: defined(operator, "operator"),
          provider: ethers.provider,
          table: scores.table,
          journal,
          out: { line: () => {}, warn: (w) => warnings.push(w) },
        },
        {
          stage: 5n,
          limits: await gasLimits(ethers.provider),
          maxInFlight: 1,
          maxBatchSize: 100,
          kinds,
          pollMs: 20,
        },
      );

      expect(report.outOfGas).to.equal(1);
      expect(await score.scoreCount(5n)).to.equal(200n);
      const second = journal.records
        .filter((r) => "batch" in r && r.batch === 1)
        .map((r) => r.type);
      expect(second).to.deep.equal([
        "batch",
        "sending",
        "sent",
        "confirmed",
        "dropped",
        "sending",
        "sent",
        "confirmed",
      ]);
      const [failed, landed] = journal.records.filter(
        (r) => r.type === "confirmed" && r.batch === 1,
      ) as ConfirmedRecord[];
      expect(defined(failed, "failed").status).to.equal(0);
      expect(defined(landed, "landed").status).to.equal(1);
      expect(journal.records.find((r) => r.type === "dropped")).to.deep.include(
        { batch: 1 },
      );
      expect(
        (
          journal.records.find((r) => r.type === "dropped") as {
            reason: string;
          }
        ).reason,
      ).to.match(/^ran out of gas: used \d+ of \d+, estimated \d+$/);
      expect(warnings.join("\n")).to.match(
        /batch 2 ran out of gas .*: sending it again/,
      );
      const differences = await compareWithChain(score, 5n, scores.table);
      expect(differences).to.deep.equal([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("sends a batch that ran out of gas again after a restart, when the killed run journalled only its receipt", async () => {
    const [operator] = await ethers.getSigners();
    const score = await deployVipScore(ethers, 5n);
    const dir = await mkdtemp(path.join(tmpdir(), "vip-out-of-gas-resume-"));
    try {
      const addresses = sampleAddresses(200, "short-resume");
      const { scores, journal } = await pushSetup(
        dir,
        score,
        defined(operator, "operator").address,
        addresses,
      );
      // What a killed run left: the first batch confirmed, the second mined out
      // of gas, then the kill.
      const batches = [
        { start: 0, end: 100, gasLimit: 5_000_000n },
        { start: 100, end: 200, gasLimit: 500_000n },
      ];
      for (const [batch, { start, end, gasLimit }] of batches.entries()) {
        const nonce = await ethers.provider.getTransactionCount(
          defined(operator, "operator").address,
          "pending",
        );
        const tx = await score.updateScores(
          5n,
          addresses.slice(start, end),
          Array.from({ length: end - start }, (_, i) => BigInt(start + i + 1)),
          { gasLimit, nonce },
        );
        const receipt = defined(
          await ethers.provider.getTransactionReceipt(tx.hash),
          "(await ethers.provider.getTransactionReceipt(tx.hash))",
        );
        await journal.append(
          { type: "batch", batch, start, end, gasLimit: gasLimit.toString() },
          { type: "sending", batch, nonce },
          { type: "sent", batch, nonce, hash: tx.hash },
          {
            type: "confirmed",
            batch,
            hash: tx.hash,
            blockNumber: receipt.blockNumber,
            gasUsed: receipt.gasUsed.toString(),
            status: receipt.status ?? 0,
          },
        );
      }
      expect((journal.records.at(-1) as ConfirmedRecord).status).to.equal(0);
      const nonceBefore = await ethers.provider.getTransactionCount(
        defined(operator, "operator").address,
      );

      const resumed = await Journal.open(journal.path);
      const report = await pushScores(
        {
          score,
          signer: defined(operator, "operator"),
          provider: ethers.provider,
          table: scores.table,
          journal: resumed,
          out: { line: () => {}, warn: () => {} },
        },
        {
          stage: 5n,
          limits: await gasLimits(ethers.provider),
          maxInFlight: 1,
          maxBatchSize: 100,
          pollMs: 20,
        },
      );

      expect(report.outOfGas).to.equal(1);
      expect(
        await ethers.provider.getTransactionCount(
          defined(operator, "operator").address,
        ),
      ).to.equal(nonceBefore + 1);
      expect(resumed.records.slice(-4).map((r) => r.type)).to.deep.equal([
        "dropped",
        "sending",
        "sent",
        "confirmed",
      ]);
      expect(await compareWithChain(score, 5n, scores.table)).to.deep.equal([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("reports a receipt whose status is not success as `Tx failed <hash>`", async () => {
    const score = await deployVipScore(ethers, 5n);
    let error: unknown;
    try {
      // An explicit gas limit skips the estimate, so the failing call is mined.
      await sendAndConfirm("finalizeStage(9)", () =>
        score.finalizeStage(9n, { gasLimit: 100_000n }),
      );
    } catch (caught) {
      error = caught;
    }
    const block = await ethers.provider.getBlock("latest");
    const hash = defined(
      defined(block, "block").transactions[0],
      'defined(block, "block").transactions[0]',
    );
    expect(
      defined(
        await ethers.provider.getTransactionReceipt(hash),
        "(await ethers.provider.getTransactionReceipt(hash))",
      ).status,
    ).to.equal(0);
    if (!isVipError(error, ERRORS.CONTRACT.CALLS.TX_FAILED))
      expect.fail(`expected TX_FAILED, got: ${String(error)}`);
    expect(error.params.hash).to.equal(hash);
    expect(error.params.why).to.equal(
      `: StageNotFound(9), replayed on the state after block ${block?.number}`,
    );
  });

  it("says a mined transaction that used all its gas ran out of it", async () => {
    const score = await deployVipScore(ethers, 5n);
    let error: unknown;
    try {
      // Enough to be taken, not to finalize.
      await sendAndConfirm("finalizeStage(5)", () =>
        score.finalizeStage(5n, { gasLimit: 25_000n }),
      );
    } catch (caught) {
      error = caught;
    }
    if (!isVipError(error, ERRORS.CONTRACT.CALLS.TX_FAILED))
      expect.fail(`expected TX_FAILED, got: ${String(error)}`);
    const receipt = await ethers.provider.getTransactionReceipt(
      String(error.params.hash),
    );
    expect(receipt?.status).to.equal(0);
    expect(receipt?.gasUsed).to.equal(25_000n);
    expect(error.params.why).to.equal(
      ": it ran out of gas (it used all of its 25000)",
    );
    expect(error.message).to.match(
      /Tx failed 0x[0-9a-f]{64}: it ran out of gas/,
    );
    expect((await score.stages(5n)).isFinalized).to.equal(false);
  });

  it("names the contract's reason when the estimate refuses a call, and sends nothing", async () => {
    const score = await deployVipScore(ethers, 5n);
    const before = await ethers.provider.getBlockNumber();
    let error: unknown;
    try {
      await estimateSendAndConfirm(
        "finalizeStage(9)",
        ethers.provider,
        await (await ethers.provider.getSigner()).getAddress(),
        () => score.finalizeStage.estimateGas(9n),
        (overrides) => score.finalizeStage(9n, overrides),
      );
    } catch (caught) {
      error = caught;
    }
    if (!isVipError(error, ERRORS.CONTRACT.CALLS.REFUSED_REVERT))
      expect.fail(`expected REFUSED_REVERT, got: ${String(error)}`);
    expect(error.params).to.deep.equal({
      what: "finalizeStage(9)",
      revert: "StageNotFound",
      args: "9",
    });
    expect(await ethers.provider.getBlockNumber()).to.equal(before);
  });
});
