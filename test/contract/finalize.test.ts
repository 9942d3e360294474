import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import { expect } from "chai";
import { network } from "hardhat";

import { deployVipScore } from "../../scripts/gas/scenarios.js";
import { finalizeOnce } from "../../tasks/contract/finalize.js";
import { ERRORS } from "../../tasks/error-catalog.js";
import { defined } from "../../tasks/errors.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
import { refusal } from "../helpers/failure.js";
import {
  dropOnceSent,
  expectSentAfterNeverBroadcast,
  expectSentAgainAfterDrop,
  journalLines,
  type JournalLine,
  sentAndDropped,
  withAutomineOff,
  writeJournal,
} from "../helpers/journalled-send.js";

const { ethers } = await network.create();

const STAGE = 5n;

describe("finalizing a stage once, journalled", () => {
  let dir: string;
  let journal: string;
  let score: VipScore;
  let operator: HardhatEthersSigner;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-finalize-"));
    journal = path.join(dir, "stage-5.finalize.jsonl");
    operator = defined((await ethers.getSigners())[0], "the first test key");
    score = await deployVipScore(ethers, STAGE);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const finalize = () =>
    finalizeOnce(score, operator, STAGE, journal, {
      network: "default",
      pollMs: 1,
    });
  const lines = (): Promise<JournalLine[]> => journalLines(journal);
  const nonceNow = () => ethers.provider.getTransactionCount(operator.address);
  const finalized = async () => (await score.stages(STAGE)).isFinalized;
  /** A journal as a run killed after its last record leaves it. */
  const killedAfter = (records: object[]) => writeJournal(journal, records);
  /** The finalization sent by hand with `nonce`, as a killed run's broadcast. */
  async function sentByKilledRun() {
    const nonce = await nonceNow();
    const block = await ethers.provider.getBlockNumber();
    const tx = await score.finalizeStage(STAGE, { nonce });
    await tx.wait();
    const sending = {
      type: "sending",
      nonce,
      block,
      at: "2026-11-23T10:00:00.000Z",
      data: tx.data,
    };
    return { sending, sent: { type: "sent", nonce, hash: tx.hash } };
  }

  it("finalizes a fresh stage, journalling sending, sent and confirmed", async () => {
    const before = await nonceNow();
    const { receipt, resumed } = await finalize();
    expect(resumed).to.equal(false);
    expect(receipt?.status).to.equal(1);
    expect(await finalized()).to.equal(true);
    expect(await score.openStage()).to.equal(STAGE + 1n);
    expect(await nonceNow()).to.equal(before + 1);
    const written = await lines();
    expect(written.map((r) => r.type)).to.deep.equal([
      "sending",
      "sent",
      "confirmed",
    ]);
    expect(written[0]).to.include({ nonce: before, from: operator.address });
    expect(written[0]?.data).to.equal(
      score.interface.encodeFunctionData("finalizeStage", [STAGE]),
    );
    expect(written[1]).to.deep.equal({
      type: "sent",
      nonce: before,
      hash: receipt?.hash,
    });
    expect(written[2]).to.deep.equal({
      type: "confirmed",
      hash: receipt?.hash,
      blockNumber: receipt?.blockNumber,
      gasUsed: receipt?.gasUsed.toString(),
      status: 1,
    });
  });

  it("resumes a journal ending in sending whose transaction went out: found by nonce, not sent again", async () => {
    const { sending, sent } = await sentByKilledRun();
    await killedAfter([sending]);
    const before = await nonceNow();
    const { receipt, resumed } = await finalize();
    expect(resumed).to.equal(true);
    expect(receipt?.hash).to.equal(sent.hash);
    expect(await nonceNow()).to.equal(before);
    expect((await lines()).map((r) => r.type)).to.deep.equal([
      "sending",
      "sent",
      "confirmed",
    ]);
    expect((await lines())[1]).to.deep.equal(sent);
  });

  it("resumes a sending by another key (journalled with its signer) by that key's nonce: this key sends nothing", async () => {
    const other = defined((await ethers.getSigners())[1], "a second test key");
    await (await score.addAllowList(other.address)).wait();
    const nonce = await ethers.provider.getTransactionCount(other.address);
    const block = await ethers.provider.getBlockNumber();
    const tx = await score.connect(other).finalizeStage(STAGE, { nonce });
    await tx.wait();
    await killedAfter([
      {
        type: "sending",
        from: other.address,
        nonce,
        block,
        at: "2026-11-23T10:00:00.000Z",
        data: tx.data,
      },
    ]);
    const before = await nonceNow();
    const { receipt, resumed } = await finalize();
    expect(resumed).to.equal(true);
    expect(receipt?.hash).to.equal(tx.hash);
    expect(await nonceNow(), "this key sent nothing").to.equal(before);
    expect((await lines())[1]).to.deep.equal({
      type: "sent",
      nonce,
      hash: tx.hash,
    });
  });

  it("resumes a journal ending in sending that never went out: dropped, then sent", async () => {
    const nonce = await nonceNow();
    await killedAfter([
      {
        type: "sending",
        nonce,
        block: await ethers.provider.getBlockNumber(),
        at: "2026-11-23T10:00:00.000Z",
        data: score.interface.encodeFunctionData("finalizeStage", [STAGE]),
      },
    ]);
    const { receipt, resumed } = await finalize();
    expect(resumed).to.equal(false);
    expect(await finalized()).to.equal(true);
    expect(await nonceNow()).to.equal(nonce + 1);
    const written = await lines();
    expectSentAfterNeverBroadcast(written, nonce);
    expect(written[3]).to.include({ hash: receipt?.hash });
  });

  it("resumes a journal ending in sending whose nonce another transaction took: dropped, then sent", async () => {
    const nonce = await nonceNow();
    const block = await ethers.provider.getBlockNumber();
    await (
      await operator.sendTransaction({ to: operator.address, nonce })
    ).wait();
    await killedAfter([
      { type: "sending", nonce, block, at: "2026-11-23T10:00:00.000Z" },
    ]);
    const { resumed } = await finalize();
    expect(resumed).to.equal(false);
    expect(await finalized()).to.equal(true);
    const written = await lines();
    expect(written[1]).to.deep.equal({
      type: "dropped",
      nonce,
      reason: "used by another transaction",
    });
    expect(written.at(-1)).to.include({ type: "confirmed", status: 1 });
  });

  it("stops with FINALIZE_DROPPED when the node drops the finalization while this run waits for it; the next run sends it anew", async () => {
    const nonce = await nonceNow();
    await withAutomineOff(ethers.provider, async () => {
      const running = finalize();
      const hash = await dropOnceSent(ethers.provider, journal);
      const error = await refusal(
        running,
        ERRORS.CONTRACT.FINALIZE.FINALIZE_DROPPED,
      );
      expect(error.params.hash).to.equal(hash);
      expect((await lines()).map((r) => r.type)).to.deep.equal([
        "sending",
        "sent",
        "dropped",
      ]);
    });
    expect(await finalized()).to.equal(false);
    expect(await nonceNow()).to.equal(nonce);
    const { resumed } = await finalize();
    expect(resumed).to.equal(false);
    expect(await finalized()).to.equal(true);
    expect(await nonceNow()).to.equal(nonce + 1);
  });

  it("resumes a journal ending in sent: waits for that receipt, sends nothing", async () => {
    const { sending, sent } = await sentByKilledRun();
    await killedAfter([sending, sent]);
    const before = await nonceNow();
    const { receipt, resumed } = await finalize();
    expect(resumed).to.equal(true);
    expect(receipt?.hash).to.equal(sent.hash);
    expect(await nonceNow()).to.equal(before);
    expect((await lines()).map((r) => r.type)).to.deep.equal([
      "sending",
      "sent",
      "confirmed",
    ]);
  });

  it("resumes a journal ending in confirmed: the receipt read back, nothing written or sent", async () => {
    const first = await finalize();
    const written = await lines();
    const before = await nonceNow();
    const { receipt, resumed } = await finalize();
    expect(resumed).to.equal(true);
    expect(receipt?.hash).to.equal(first.receipt?.hash);
    expect(await nonceNow()).to.equal(before);
    expect(await lines()).to.deep.equal(written);
  });

  it("sends again a transaction the node dropped after a run journalled it sent", async () => {
    const nonce = await nonceNow();
    const block = await ethers.provider.getBlockNumber();
    const hash = await sentAndDropped(ethers.provider, () =>
      score.finalizeStage(STAGE, { nonce }),
    );
    const data = score.interface.encodeFunctionData("finalizeStage", [STAGE]);
    const sending = { type: "sending", nonce, block, at: "t", data };
    await killedAfter([sending, { type: "sent", nonce, hash }]);
    const { receipt, resumed } = await finalize();
    expect(resumed).to.equal(false);
    expect(receipt?.hash).to.not.equal(hash);
    expect(await finalized()).to.equal(true);
    expectSentAgainAfterDrop(await lines(), hash);
  });

  it("sends after a journal an earlier version ended in unsent", async () => {
    const nonce = await nonceNow();
    await killedAfter([
      { type: "sending", nonce, block: 0, at: "2026-11-23T10:00:00.000Z" },
      { type: "unsent", nonce, reason: "never broadcast" },
    ]);
    const { resumed } = await finalize();
    expect(resumed).to.equal(false);
    expect(await finalized()).to.equal(true);
    expect((await lines()).map((r) => r.type)).to.deep.equal([
      "sending",
      "unsent",
      "sending",
      "sent",
      "confirmed",
    ]);
  });

  it("sends nothing for a stage another transaction finalized", async () => {
    await (await score.finalizeStage(STAGE)).wait();
    const before = await nonceNow();
    const { receipt, resumed } = await finalize();
    expect(receipt).to.equal(undefined);
    expect(resumed).to.equal(false);
    expect(await nonceNow()).to.equal(before);
  });
});
