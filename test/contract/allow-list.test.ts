import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import { expect } from "chai";
import { ZeroAddress } from "ethers";
import { network } from "hardhat";

import { deployVipScore } from "../../scripts/gas/scenarios.js";
import {
  type AllowListChange,
  changeAllowList,
  parseAllowListAddress,
} from "../../tasks/contract/allow-list.js";
import { ERRORS } from "../../tasks/error-catalog.js";
import { defined } from "../../tasks/errors.js";
import { allowListJournalPath } from "../../tasks/journal/journal.js";
import { field, type Output } from "../../tasks/output.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
import { caught, refusal } from "../helpers/failure.js";
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

const RESUMED = "(sent by an earlier run, found by its journal)";

describe("changing the allow list once, journalled", () => {
  let dir: string;
  let score: VipScore;
  let contract: string;
  /** The deployer, allowed from the start: the signer of every change. */
  let operator: HardhatEthersSigner;
  /** The address the changes are about. */
  let target: HardhatEthersSigner;
  /** A second allowed key, or an outsider. */
  let other: HardhatEthersSigner;
  let printed: string[];
  let warnings: string[];

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-allow-list-"));
    const signers = await ethers.getSigners();
    operator = defined(signers[0], "the first test key");
    target = defined(signers[1], "the second test key");
    other = defined(signers[2], "the third test key");
    score = await deployVipScore(ethers, 1n);
    contract = await score.getAddress();
    printed = [];
    warnings = [];
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const out: Output = {
    line: (text) => printed.push(text),
    warn: (text) => warnings.push(text),
  };
  const change = (
    kind: AllowListChange,
    signer: HardhatEthersSigner = operator,
    timings: { receiptTimeoutMs?: number } = {},
  ) =>
    changeAllowList(
      score.connect(signer),
      signer,
      kind,
      target.address,
      { network: "default", journalDir: dir, pollMs: 1, ...timings },
      out,
    );
  const journalOf = (kind: AllowListChange) =>
    allowListJournalPath(dir, 31337n, contract, kind, target.address);
  const lines = (kind: AllowListChange): Promise<JournalLine[]> =>
    journalLines(journalOf(kind));
  /** A journal as a run killed after its last record leaves it. */
  const killedAfter = (kind: AllowListChange, records: object[]) =>
    writeJournal(journalOf(kind), records);
  const nonceOf = (signer: HardhatEthersSigner) =>
    ethers.provider.getTransactionCount(signer.address);
  const listed = () => score.allowList(target.address);
  const calldata = (kind: AllowListChange) =>
    kind === "add"
      ? score.interface.encodeFunctionData("addAllowList", [target.address])
      : score.interface.encodeFunctionData("removeAllowList", [target.address]);
  /** The line of a change the allow list already shows. */
  const unchanged = (kind: AllowListChange) =>
    kind === "add"
      ? /^already allowed\s+.*nothing was sent$/
      : /^not listed\s+.*nothing was sent$/;
  /** The state a change leaves the target in. */
  const wanted = (kind: AllowListChange) => kind === "add";
  /** Before a removal, the target is on the list (added by hand). */
  async function prepare(kind: AllowListChange) {
    if (kind === "remove")
      await (await score.addAllowList(target.address)).wait();
  }
  /** A `sending` record as a run of `signer` writes it, before its broadcast. */
  async function sendingRecord(
    kind: AllowListChange,
    signer: HardhatEthersSigner = operator,
  ) {
    return {
      type: "sending",
      from: signer.address,
      nonce: await nonceOf(signer),
      block: await ethers.provider.getBlockNumber(),
      at: "2026-11-23T10:00:00.000Z",
      data: calldata(kind),
    };
  }
  /** Runs `body` with automining off: what it sends stays pending. */
  const withoutAutomine = <T>(body: () => Promise<T>): Promise<T> =>
    withAutomineOff(ethers.provider, body);

  for (const kind of ["add", "remove"] as const) {
    it(`${kind}: journals sending (with its signer), sent and confirmed, and prints the transaction`, async () => {
      await prepare(kind);
      const before = await nonceOf(operator);
      await change(kind);
      expect(await listed()).to.equal(wanted(kind));
      expect(await nonceOf(operator)).to.equal(before + 1);
      const written = await lines(kind);
      expect(written.map((r) => r.type)).to.deep.equal([
        "sending",
        "sent",
        "confirmed",
      ]);
      expect(written[0]).to.include({
        from: operator.address,
        nonce: before,
        data: calldata(kind),
      });
      const hash = written[1]?.hash;
      expect(written[1]).to.deep.equal({ type: "sent", nonce: before, hash });
      const receipt = defined(
        await ethers.provider.getTransactionReceipt(String(hash)),
        "the change was mined",
      );
      expect(written[2]).to.deep.equal({
        type: "confirmed",
        hash,
        blockNumber: receipt.blockNumber,
        gasUsed: receipt.gasUsed.toString(),
        status: 1,
      });
      expect(printed[0]).to.match(
        new RegExp(
          `^${kind === "add" ? "allowed" : "removed"}\\s+${target.address} on ` +
            `${contract} in tx ${String(hash)}, block ${receipt.blockNumber}, gas [\\d,]+$`,
        ),
      );
      expect(printed[1]).to.match(
        new RegExp(`^allow list\\s+${kind === "add" ? 2 : 1} address`),
      );
    });

    // A run killed after its k-th record (0: before the first), then run
    // again: one transaction in all, the target in the change's state.
    for (const k of [0, 1, 2, 3]) {
      it(`${kind}: a run killed after record ${k} of 3, run again, has sent exactly one transaction`, async () => {
        await prepare(kind);
        const before = await nonceOf(operator);
        await change(kind);
        const complete = await lines(kind);
        await killedAfter(kind, complete.slice(0, k));
        printed = [];
        await change(kind);
        expect(await nonceOf(operator)).to.equal(before + 1);
        expect(await listed()).to.equal(wanted(kind));
        const hash = String(complete[1]?.hash);
        if (k === 0) {
          // Killed before anything was journalled, after the change was
          // mined: the allow list shows it.
          expect(printed[0]).to.match(unchanged(kind));
          expect(await lines(kind)).to.deep.equal([]);
        } else if (k === 3) {
          // Killed after its receipt was journalled, before it was printed.
          expect(printed[0]).to.match(unchanged(kind));
          expect(printed[0]).to.include(`by the earlier tx ${hash}`);
          expect(await lines(kind)).to.deep.equal(complete);
        } else {
          // Followed to its receipt now: printed as the killed run would have.
          expect(printed[0]).to.include(hash);
          expect(printed[0]).to.include(RESUMED);
          expect(await lines(kind)).to.deep.equal(complete);
        }
      });
    }

    it(`${kind}: a run killed after sending, before its broadcast: dropped as never broadcast, then sent once`, async () => {
      await prepare(kind);
      const sending = await sendingRecord(kind);
      await killedAfter(kind, [sending]);
      await change(kind);
      expect(await listed()).to.equal(wanted(kind));
      expect(await nonceOf(operator)).to.equal(sending.nonce + 1);
      expectSentAfterNeverBroadcast(await lines(kind), sending.nonce);
      expect(printed[0]).to.not.include(RESUMED);
    });
  }

  it("a rerun after done sends nothing and writes nothing: the earlier transaction is reported", async () => {
    await change("add");
    const written = await lines("add");
    const hash = String(written[1]?.hash);
    const { blockNumber } = defined(
      await ethers.provider.getTransactionReceipt(hash),
      "the addition was mined",
    );
    printed = [];
    const before = await nonceOf(operator);
    const block = await ethers.provider.getBlockNumber();
    await change("add");
    expect(await nonceOf(operator)).to.equal(before);
    expect(await ethers.provider.getBlockNumber()).to.equal(block);
    expect(await lines("add")).to.deep.equal(written);
    expect(printed).to.deep.equal([
      field(
        "already allowed",
        `${target.address} on ${contract}, by the earlier tx ${hash} ` +
          `(block ${blockNumber}, found by its journal): nothing was sent`,
      ),
    ]);
  });

  it("a change journalled done but undone since (removed by hand) is sent anew, appended to its journal", async () => {
    await change("add");
    await (await score.removeAllowList(target.address)).wait();
    const before = await nonceOf(operator);
    printed = [];
    await change("add");
    expect(await listed()).to.equal(true);
    expect(await nonceOf(operator)).to.equal(before + 1);
    expect((await lines("add")).map((r) => r.type)).to.deep.equal([
      "sending",
      "sent",
      "confirmed",
      "sending",
      "sent",
      "confirmed",
    ]);
    expect(printed[0]).to.not.include(RESUMED);
  });

  it("an earlier dropped leads to a resend with the nonce it had", async () => {
    const sending = await sendingRecord("add");
    await killedAfter("add", [
      sending,
      { type: "dropped", nonce: sending.nonce, reason: "never broadcast" },
    ]);
    await change("add");
    expect(await listed()).to.equal(true);
    expect(await nonceOf(operator)).to.equal(sending.nonce + 1);
    expectSentAfterNeverBroadcast(await lines("add"), sending.nonce);
  });

  it("a transaction the node dropped after a run journalled it sent is journalled dropped and sent again", async () => {
    const sending = await sendingRecord("add");
    const hash = await sentAndDropped(ethers.provider, () =>
      score.addAllowList(target.address, { nonce: sending.nonce }),
    );
    await killedAfter("add", [
      sending,
      { type: "sent", nonce: sending.nonce, hash },
    ]);
    await change("add");
    expect(await listed()).to.equal(true);
    expect(await nonceOf(operator)).to.equal(sending.nonce + 1);
    expectSentAgainAfterDrop(await lines("add"), hash);
  });

  it("a sending whose nonce another transaction took: dropped, then sent", async () => {
    const sending = await sendingRecord("add");
    await (
      await operator.sendTransaction({
        to: operator.address,
        nonce: sending.nonce,
      })
    ).wait();
    await killedAfter("add", [sending]);
    await change("add");
    expect(await listed()).to.equal(true);
    expect(await nonceOf(operator)).to.equal(sending.nonce + 2);
    const written = await lines("add");
    expect(written[1]).to.deep.equal({
      type: "dropped",
      nonce: sending.nonce,
      reason: "used by another transaction",
    });
    expect(written.at(-1)).to.include({ type: "confirmed", status: 1 });
  });

  it("a sending still pending at the node (killed after the broadcast) is found by nonce and followed, not sent again", async () => {
    const sending = await sendingRecord("add");
    await withoutAutomine(async () => {
      await score.addAllowList(target.address, { nonce: sending.nonce });
      await killedAfter("add", [sending]);
      // The rerun finds the pending transaction, then waits for the block.
      const rerun = change("add");
      await new Promise((resolve) => setTimeout(resolve, 200));
      await ethers.provider.send("evm_mine", []);
      await rerun;
    });
    expect(await listed()).to.equal(true);
    expect(await nonceOf(operator)).to.equal(sending.nonce + 1);
    expect((await lines("add")).map((r) => r.type)).to.deep.equal([
      "sending",
      "sent",
      "confirmed",
    ]);
    expect(printed[0]).to.include(RESUMED);
  });

  it("a sending whose nonce is pending with another transaction is refused until it is mined", async () => {
    const sending = await sendingRecord("add");
    await withoutAutomine(async () => {
      await operator.sendTransaction({
        to: operator.address,
        nonce: sending.nonce,
      });
      await killedAfter("add", [sending]);
      const error = await refusal(
        change("add"),
        ERRORS.CONTRACT.ALLOW_LIST.CHANGE_NONCE_PENDING,
      );
      expect(error.params).to.include({
        nonce: sending.nonce,
        from: operator.address,
        journal: journalOf("add"),
      });
      await ethers.provider.send("evm_mine", []);
    });
    await change("add");
    expect(await listed()).to.equal(true);
    expect(await nonceOf(operator)).to.equal(sending.nonce + 2);
  });

  it("a sent transaction not mined in time stops the run; the next run follows the same one", async () => {
    const sending = await sendingRecord("add");
    await withoutAutomine(async () => {
      const tx = await score.addAllowList(target.address, {
        nonce: sending.nonce,
      });
      await killedAfter("add", [
        sending,
        { type: "sent", nonce: sending.nonce, hash: tx.hash },
      ]);
      const error = await refusal(
        change("add", operator, { receiptTimeoutMs: 50 }),
        ERRORS.CONTRACT.ALLOW_LIST.CHANGE_NOT_MINED,
      );
      expect(error.params.hash).to.equal(tx.hash);
      await ethers.provider.send("evm_mine", []);
    });
    await change("add");
    expect(await listed()).to.equal(true);
    expect(await nonceOf(operator)).to.equal(sending.nonce + 1);
    expect(printed[0]).to.include(RESUMED);
  });

  it("a transaction the node drops while this run waits for it: CHANGE_DROPPED, journalled dropped, nothing listed; the next run sends it anew", async () => {
    const nonce = await nonceOf(operator);
    await withoutAutomine(async () => {
      const running = change("add");
      const hash = await dropOnceSent(ethers.provider, journalOf("add"));
      const error = await refusal(
        running,
        ERRORS.CONTRACT.ALLOW_LIST.CHANGE_DROPPED,
      );
      expect(error.params.hash).to.equal(hash);
      expect(error.params.journal).to.equal(journalOf("add"));
      expect((await lines("add")).map((r) => r.type)).to.deep.equal([
        "sending",
        "sent",
        "dropped",
      ]);
    });
    expect(await listed()).to.equal(false);
    expect(await nonceOf(operator)).to.equal(nonce);
    await change("add");
    expect(await listed()).to.equal(true);
    expect(await nonceOf(operator)).to.equal(nonce + 1);
  });

  it("a sending by another allowed key whose transaction went out is found by that key's nonce: this key sends nothing", async () => {
    await (await score.addAllowList(other.address)).wait();
    const sending = await sendingRecord("add", other);
    await (
      await score
        .connect(other)
        .addAllowList(target.address, { nonce: sending.nonce })
    ).wait();
    await killedAfter("add", [sending]);
    const before = await nonceOf(operator);
    await change("add");
    expect(await nonceOf(operator)).to.equal(before);
    expect(await listed()).to.equal(true);
    expect(printed[0]).to.include(RESUMED);
  });

  it("a reverted transaction gives the error; the next run checks the allow list again", async () => {
    // The removal of an address that is not listed, sent without an estimate:
    // the contract reverts it (NotOnAllowList).
    const sending = await sendingRecord("remove");
    const hash = await withoutAutomine(async () => {
      const tx = await score.removeAllowList(target.address, {
        nonce: sending.nonce,
        gasLimit: 100_000n,
      });
      await ethers.provider.send("evm_mine", []);
      return tx.hash;
    });
    await killedAfter("remove", [
      sending,
      { type: "sent", nonce: sending.nonce, hash },
    ]);
    const error = await refusal(
      change("remove"),
      ERRORS.CONTRACT.CALLS.TX_FAILED,
    );
    expect(error.params.hash).to.equal(hash);
    // Why, from the transaction replayed on the state after its block.
    const mined = await ethers.provider.getTransactionReceipt(hash);
    expect(error.params.why).to.equal(
      `: NotOnAllowList(${target.address}), replayed on the state after block ${mined?.blockNumber}`,
    );
    expect(await nonceOf(operator)).to.equal(sending.nonce + 1);
    expect((await lines("remove")).at(-1)).to.include({
      type: "confirmed",
      hash,
      status: 0,
    });
    // Run again: the reverted transaction named, nothing to remove.
    await change("remove");
    expect(warnings[0]).to.include(hash);
    expect(printed[0]).to.match(/^not listed\s+.*nothing was sent$/);
    expect(await nonceOf(operator)).to.equal(sending.nonce + 1);
  });

  it("a journal ending in a reverted addition sends it anew after the checks", async () => {
    await killedAfter("add", [
      { ...(await sendingRecord("add")), nonce: 0 },
      { type: "sent", nonce: 0, hash: `0x${"ab".repeat(32)}` },
      {
        type: "confirmed",
        hash: `0x${"ab".repeat(32)}`,
        blockNumber: 1,
        gasUsed: "30000",
        status: 0,
      },
    ]);
    const before = await nonceOf(operator);
    await change("add");
    expect(await listed()).to.equal(true);
    expect(await nonceOf(operator)).to.equal(before + 1);
    expect(warnings[0]).to.include(`0x${"ab".repeat(32)}`);
  });

  it("names the journal by chain, lower-cased contract, change and lower-cased address, beside the stages'", () => {
    expect(
      allowListJournalPath(
        "/j",
        31337n,
        "0xABCDEF0000000000000000000000000000000001",
        "remove",
        "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      ),
    ).to.equal(
      "/j/chain-31337/0xabcdef0000000000000000000000000000000001/" +
        "allowlist-remove-0x70997970c51812dc3a010c7d01b50e0d17dc79c8.jsonl",
    );
  });

  describe("refusals, with nothing sent or journalled", () => {
    async function sendsNothing(run: () => Promise<unknown>) {
      const block = await ethers.provider.getBlockNumber();
      await run();
      expect(await ethers.provider.getBlockNumber()).to.equal(block);
    }

    it("a signer not on the allow list", async () => {
      await sendsNothing(async () => {
        const error = await refusal(
          change("add", other),
          ERRORS.CONTRACT.ALLOW_LIST.SIGNER_CANNOT_CHANGE_ALLOW_LIST,
        );
        expect(error.params).to.deep.equal({ signer: other.address, contract });
      });
      expect(await lines("add").catch(() => [])).to.deep.equal([]);
    });

    it("removing the last allowed address", async () => {
      await sendsNothing(async () => {
        const error = await refusal(
          changeAllowList(
            score,
            operator,
            "remove",
            operator.address,
            { network: "rollup", journalDir: dir },
            out,
          ),
          ERRORS.CONTRACT.ALLOW_LIST.LAST_ALLOWED,
        );
        expect(error.params).to.deep.equal({
          address: operator.address,
          contract,
          network: "rollup",
        });
      });
    });

    it("an address already allowed, or not listed: reported, nothing sent", async () => {
      await prepare("remove");
      await sendsNothing(() => change("add"));
      expect(printed[0]).to.match(
        new RegExp(
          `^already allowed\\s+${target.address} on ${contract}: nothing was sent$`,
        ),
      );
      await (await score.removeAllowList(target.address)).wait();
      await sendsNothing(() => change("remove"));
      expect(printed[1]).to.match(
        new RegExp(
          `^not listed\\s+${target.address} on ${contract}: nothing was sent$`,
        ),
      );
    });

    it("the zero address, before the network is touched", () => {
      caught(
        () => parseAllowListAddress(ZeroAddress),
        ERRORS.CONTRACT.ALLOW_LIST.ZERO_ADDRESS,
      );
    });
  });
});
