import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { id, type Signer, type TransactionRequest } from "ethers";
import { network } from "hardhat";

import { type EvmTx, RouterClient } from "../../tasks/clients/router.js";
import { ERRORS } from "../../tasks/error-catalog.js";
import { defined } from "../../tasks/errors.js";
import { Journal } from "../../tasks/journal/journal.js";
import {
  opinitRoute,
  type RouterStandIn,
  startRouterStandIn,
} from "../../tasks/stand-ins/router.js";
import { type EvmContext, runEvmTx } from "../../tasks/transfer/evm.js";
import {
  recordsOf,
  type TransferRecord,
} from "../../tasks/transfer/records.js";
import {
  BridgeStandIn__factory,
  type BridgeStandIn,
  TestToken__factory,
  type TestToken,
} from "../../types/ethers-contracts/index.js";
import { refusal } from "../helpers/failure.js";

// A node that mines failing transactions instead of refusing them, as a rollup
// node does.
const { ethers } = await network.create({
  network: "default",
  override: { throwOnTransactionFailures: false },
});

const L2_DENOM =
  "l2/2588fd87a8e081f6a557f43ff14f05dddf5e34cb27afcefd6eaf81f1daea30d0";
const RECIPIENT = "init17w0adeg64ky0daxwd2ugyuneellmjgnxdtmpqz";
const AMOUNT = 1_000_000n;
const ROLLUP = "rehearsal-1";

/** What a kill leaves: the run stops right after this record is written. */
class Killed extends Error {}

describe("runEvmTx: an evm_tx of a route sent once across kills, on the in-process network", () => {
  let router: RouterStandIn;
  let token: TestToken;
  let bridge: BridgeStandIn;
  let signer: Signer;
  let other: Signer;
  let from: string;
  let chainId: bigint;
  /** The stand-in router's evm_tx: one approval, then the bridge's deposit. */
  let tx: EvmTx;
  let dir: string;
  let lines: string[];

  before(async () => {
    const [first, second] = await ethers.getSigners();
    signer = defined(first, "the network's first account");
    other = defined(second, "the network's second account");
    from = await signer.getAddress();
    chainId = (await ethers.provider.getNetwork()).chainId;
    token = await new TestToken__factory(signer).deploy(from, 10n ** 24n);
    await token.waitForDeployment();
    bridge = await new BridgeStandIn__factory(signer).deploy();
    await bridge.waitForDeployment();
    const tokenAddress = await token.getAddress();
    const route = opinitRoute({
      from: chainId.toString(),
      to: ROLLUP,
      denomIn: tokenAddress,
      denomOut: L2_DENOM,
      bridgeId: "16",
      amountIn: AMOUNT,
      opHook: false,
    });
    route.msgs = {
      evm: {
        chainId: chainId.toString(),
        bridge: await bridge.getAddress(),
        token: tokenAddress,
      },
    };
    router = await startRouterStandIn({ routes: [route] });
    const msgs = await new RouterClient(router.url).msgs({
      source_asset_denom: tokenAddress,
      source_asset_chain_id: chainId.toString(),
      dest_asset_denom: L2_DENOM,
      dest_asset_chain_id: ROLLUP,
      amount_in: AMOUNT.toString(),
      amount_out: AMOUNT.toString(),
      operations: [],
      address_list: [from, RECIPIENT],
      slippage_tolerance_percent: "1",
    });
    const only = defined(msgs.txs[0], "the route has one transaction");
    if (!("evm_tx" in only)) throw new Error("the stand-in answered no evm_tx");
    tx = only.evm_tx;
    expect(tx.required_erc20_approvals).to.have.length(1);
  });

  after(() => router.close());

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-evm-tx-"));
    lines = [];
    // Every test starts with no allowance: the transfer approves, then deposits.
    const allowance = await token.allowance(from, await bridge.getAddress());
    if (allowance !== 0n)
      await (await token.approve(await bridge.getAddress(), 0n)).wait();
  });

  afterEach(() => rm(dir, { recursive: true, force: true }));

  const journalFile = () => path.join(dir, "transfer.jsonl");
  const openJournal = () => Journal.open<TransferRecord>(journalFile());
  const context = (
    journal: Journal<TransferRecord>,
    overrides: Partial<EvmContext> = {},
  ): EvmContext => ({
    journal,
    signer,
    from,
    provider: ethers.provider,
    chainId,
    out: {
      line: (text) => lines.push(text),
      warn: (text) => lines.push(text),
    },
    ...overrides,
  });
  /** Transactions the signer has had mined. */
  const nonce = () => ethers.provider.getTransactionCount(from, "latest");
  const bridged = async () => token.balanceOf(await bridge.getAddress());
  /** The journal's end state: each step's outcome. */
  const outcomes = (journal: Journal<TransferRecord>) =>
    recordsOf(journal.records, "confirmed").map((r) => [r.step, r.status]);
  /**
   * Makes `journal` stop the run (as a SIGKILL would) right after it writes
   * the record `type` of `step`, once.
   */
  const killAfter = (
    journal: Journal<TransferRecord>,
    type: TransferRecord["type"],
    step: string,
  ) => {
    const append = journal.append.bind(journal);
    let killed = false;
    journal.append = async (...records: TransferRecord[]) => {
      await append(...records);
      if (
        !killed &&
        records.some((r) => r.type === type && "step" in r && r.step === step)
      ) {
        killed = true;
        throw new Killed(`killed after ${type} of ${step}`);
      }
    };
  };

  it("sends a fresh transfer: the exact approval, then the deposit, each journalled before and after, mined", async () => {
    const before = { nonce: await nonce(), bridged: await bridged() };
    const journal = await openJournal();
    const hash = await runEvmTx(context(journal), 0, tx);
    expect(await nonce()).to.equal(before.nonce + 2);
    expect(await bridged()).to.equal(before.bridged + AMOUNT);
    expect(
      journal.records.map((r) => [r.type, "step" in r && r.step]),
    ).to.deep.equal([
      ["sending", "tx0-approve0"],
      ["sent", "tx0-approve0"],
      ["confirmed", "tx0-approve0"],
      ["sending", "tx0"],
      ["sent", "tx0"],
      ["confirmed", "tx0"],
    ]);
    const sending = recordsOf(journal.records, "sending");
    expect(sending.map((r) => r.nonce)).to.deep.equal([
      before.nonce,
      before.nonce + 1,
    ]);
    expect(sending[1]?.to).to.equal(tx.to);
    const mined = recordsOf(journal.records, "confirmed");
    expect(mined.map((r) => r.status)).to.deep.equal([1, 1]);
    expect(mined[1]?.hash).to.equal(hash);
    const receipt = await ethers.provider.getTransactionReceipt(hash);
    expect(receipt?.status).to.equal(1);
    expect(receipt?.blockNumber).to.equal(mined[1]?.blockNumber);
    // What the file holds is what the run remembered.
    expect((await openJournal()).records).to.deep.equal(journal.records);
    expect(lines.some((l) => l.includes(hash))).to.equal(true);
  });

  it("skips an approval the allowance already covers", async () => {
    await (await token.approve(await bridge.getAddress(), AMOUNT)).wait();
    const before = await nonce();
    const journal = await openJournal();
    await runEvmTx(context(journal), 0, tx);
    expect(await nonce()).to.equal(before + 1);
    expect(outcomes(journal)).to.deep.equal([["tx0", 1]]);
  });

  const killPoints: [TransferRecord["type"], string][] = [
    ["sending", "tx0-approve0"],
    ["sent", "tx0-approve0"],
    ["confirmed", "tx0-approve0"],
    ["sending", "tx0"],
    ["sent", "tx0"],
    ["confirmed", "tx0"],
  ];
  for (const [type, step] of killPoints) {
    it(`resumes after a kill right after the ${type} record of ${step}: the same end, nothing sent twice`, async () => {
      const before = { nonce: await nonce(), bridged: await bridged() };
      const killed = await openJournal();
      killAfter(killed, type, step);
      await runEvmTx(context(killed), 0, tx).then(
        () => expect.fail("the run should have been killed"),
        (error: unknown) => {
          // A kill inside the send is reported as a send that may have failed.
          if (!(error instanceof Killed))
            expect(String(error)).to.match(/killed after/);
        },
      );
      const sentBeforeResume = (await nonce()) - before.nonce;
      const resumed = await openJournal();
      expect(resumed.records).to.deep.equal(killed.records);
      const hash = await runEvmTx(context(resumed), 0, tx);
      expect(await nonce(), "two transactions in all").to.equal(
        before.nonce + 2,
      );
      expect(await bridged()).to.equal(before.bridged + AMOUNT);
      expect(outcomes(resumed)).to.deep.equal([
        ["tx0-approve0", 1],
        ["tx0", 1],
      ]);
      expect(recordsOf(resumed.records, "confirmed")[1]?.hash).to.equal(hash);
      // A step sent before the kill is never sent again; one journalled as
      // sending but never sent goes out with the nonce it was given.
      for (const s of ["tx0-approve0", "tx0"]) {
        const nonces = recordsOf(resumed.records, "sending")
          .filter((r) => r.step === s)
          .map((r) => r.nonce);
        expect(new Set(nonces).size, `${s}: one nonce`).to.equal(1);
        const hashes = recordsOf(resumed.records, "sent")
          .filter((r) => r.step === s)
          .map((r) => r.hash);
        expect(new Set(hashes).size, `${s}: one hash`).to.equal(1);
      }
      if (type === "confirmed" && step === "tx0")
        expect(sentBeforeResume, "all sent before the kill").to.equal(2);
      // And a third run, on the finished journal, sends nothing.
      const again = await runEvmTx(context(await openJournal()), 0, tx);
      expect(again).to.equal(hash);
      expect(await nonce()).to.equal(before.nonce + 2);
    });
  }

  it("resumes a send that reached the node before its hash was journalled: found by its nonce, not sent again", async () => {
    const before = { nonce: await nonce(), bridged: await bridged() };
    // The signer's send reaches the node, then the run dies before `sent`.
    let sends = 0;
    const dying = new Proxy(signer, {
      get(target, property, receiver) {
        if (property === "sendTransaction")
          return async (request: TransactionRequest) => {
            sends++;
            await target.sendTransaction(request);
            throw new Error("socket hang up");
          };
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    const journal = await openJournal();
    await refusal(
      runEvmTx(context(journal, { signer: dying }), 0, tx),
      ERRORS.NETWORK.EVM_TX.EVM_SEND_FAILED,
    );
    expect(sends).to.equal(1);
    expect(journal.records.map((r) => r.type)).to.deep.equal(["sending"]);
    expect(await nonce()).to.equal(before.nonce + 1);
    const resumed = await openJournal();
    await runEvmTx(context(resumed), 0, tx);
    expect(await nonce()).to.equal(before.nonce + 2);
    expect(await bridged()).to.equal(before.bridged + AMOUNT);
    expect(recordsOf(resumed.records, "sending")).to.have.length(2);
    expect(outcomes(resumed)).to.deep.equal([
      ["tx0-approve0", 1],
      ["tx0", 1],
    ]);
  });

  it("refuses to resume when the journalled nonce was taken by another transaction (NONCE_USED_BY_OTHER), sending nothing", async () => {
    const journal = await openJournal();
    killAfter(journal, "sending", "tx0-approve0");
    await runEvmTx(context(journal), 0, tx).catch((error: unknown) => {
      expect(error).to.be.instanceOf(Killed);
    });
    const journalled = defined(
      recordsOf(journal.records, "sending")[0],
      "the sending record",
    );
    // Something else goes out with that nonce.
    const intruder = await signer.sendTransaction({
      to: await other.getAddress(),
      value: 1n,
      nonce: journalled.nonce,
    });
    await intruder.wait();
    const before = await nonce();
    const resumed = await openJournal();
    const error = await refusal(
      runEvmTx(context(resumed), 0, tx),
      ERRORS.NETWORK.EVM_TX.NONCE_USED_BY_OTHER,
    );
    expect(error.params.nonce).to.equal(journalled.nonce);
    expect(error.params.hash).to.equal(intruder.hash);
    expect(await nonce(), "nothing sent").to.equal(before);
    expect(resumed.records).to.have.length(1);
  });

  it("refuses a deposit the node says reverts (REFUSED: its custom error is unknown) before journalling or sending it", async () => {
    const journal = await openJournal();
    const before = await nonce();
    const tooMuch = (10n ** 30n).toString();
    const greedy: EvmTx = {
      ...tx,
      data: bridge.interface.encodeFunctionData("deposit", [
        await token.getAddress(),
        BigInt(tooMuch),
        ROLLUP,
        RECIPIENT,
      ]),
      required_erc20_approvals: [],
    };
    await refusal(
      runEvmTx(context(journal), 0, greedy),
      ERRORS.CONTRACT.CALLS.REFUSED,
    );
    expect(await nonce()).to.equal(before);
    expect(journal.records).to.deep.equal([]);
  });

  it("resumes a journal of the earlier shape (sending with fromBlock, sent without nonce, mined): nothing sent again", async () => {
    // The lines the version before the shared records wrote: the approval
    // mined, the deposit sent, then the run killed before its receipt.
    const before = { nonce: await nonce(), bridged: await bridged() };
    const data = tx.data.startsWith("0x") ? tx.data : `0x${tx.data}`;
    const approve = token.interface.encodeFunctionData("approve", [
      await bridge.getAddress(),
      AMOUNT,
    ]);
    const fromBlock = await ethers.provider.getBlockNumber();
    const approval = await signer.sendTransaction({
      to: await token.getAddress(),
      data: approve,
      nonce: before.nonce,
    });
    const approved = defined(await approval.wait(), "the approval's receipt");
    const deposit = await signer.sendTransaction({
      to: tx.to,
      data,
      nonce: before.nonce + 1,
    });
    const sending = (step: string, to: string, calldata: string, n: number) =>
      JSON.stringify({
        type: "sending",
        step,
        chainId: chainId.toString(),
        from,
        nonce: n,
        to,
        data: calldata,
        value: "0",
        fromBlock,
      });
    await writeFile(
      journalFile(),
      [
        sending(
          "tx0-approve0",
          await token.getAddress(),
          approve,
          before.nonce,
        ),
        JSON.stringify({
          type: "sent",
          step: "tx0-approve0",
          hash: approval.hash,
        }),
        JSON.stringify({
          type: "mined",
          step: "tx0-approve0",
          hash: approval.hash,
          block: approved.blockNumber,
          status: 1,
        }),
        sending("tx0", tx.to, data, before.nonce + 1),
        JSON.stringify({ type: "sent", step: "tx0", hash: deposit.hash }),
      ]
        .map((line) => `${line}\n`)
        .join(""),
    );
    const resumed = await openJournal();
    const hash = await runEvmTx(context(resumed), 0, tx);
    expect(hash).to.equal(deposit.hash);
    expect(await nonce(), "nothing sent by the resumed run").to.equal(
      before.nonce + 2,
    );
    expect(await bridged()).to.equal(before.bridged + AMOUNT);
    // The earlier records are left as they were; the receipt is journalled in
    // this version's words.
    expect(resumed.records.map((r) => r.type)).to.deep.equal([
      "sending",
      "sent",
      "mined",
      "sending",
      "sent",
      "confirmed",
    ]);
    expect(outcomes(resumed)).to.deep.equal([["tx0", 1]]);
    const again = await runEvmTx(context(await openJournal()), 0, tx);
    expect(again).to.equal(deposit.hash);
    expect(await nonce()).to.equal(before.nonce + 2);
  });

  it("reports a transaction mined reverted (EVM_TX_FAILED), journals it so, and never sends it again", async () => {
    // No approval: the deposit reverts. A killed run journalled it as sending
    // and the signer's send reached the node (with a gas limit of its own, as
    // nothing estimates it here).
    const noApproval: EvmTx = { ...tx, required_erc20_approvals: [] };
    const journal = await openJournal();
    const startNonce = await ethers.provider.getTransactionCount(
      from,
      "pending",
    );
    await journal.append({
      type: "sending",
      step: "tx0",
      chainId: chainId.toString(),
      from,
      nonce: startNonce,
      to: tx.to,
      data: tx.data.startsWith("0x") ? tx.data : `0x${tx.data}`,
      value: "0",
      fromBlock: await ethers.provider.getBlockNumber(),
    });
    const sent = await signer.sendTransaction({
      to: tx.to,
      data: tx.data.startsWith("0x") ? tx.data : `0x${tx.data}`,
      nonce: startNonce,
      gasLimit: 300_000n,
    });
    const receipt = await ethers.provider.waitForTransaction(sent.hash);
    expect(receipt?.status, "the deposit reverted").to.equal(0);
    const bridgedBefore = await bridged();

    const resumed = await openJournal();
    const error = await refusal(
      runEvmTx(context(resumed), 0, noApproval),
      ERRORS.NETWORK.EVM_TX.EVM_TX_FAILED,
    );
    expect(error.params.hash).to.equal(sent.hash);
    // Why, replayed on the state after its block: Solady's SafeTransferLib
    // error, which this tool cannot name, by its selector.
    expect(error.params.why).to.equal(
      `: reverted with the contract's error ${id("TransferFromFailed()").slice(0, 10)}, ` +
        `replayed on the state after block ${receipt?.blockNumber}`,
    );
    expect(outcomes(resumed)).to.deep.equal([["tx0", 0]]);
    expect(recordsOf(resumed.records, "sent")[0]?.hash).to.equal(sent.hash);

    const again = await refusal(
      runEvmTx(context(await openJournal()), 0, noApproval),
      ERRORS.NETWORK.EVM_TX.EVM_TX_FAILED,
    );
    expect(again.params.hash).to.equal(sent.hash);
    expect(await nonce(), "nothing sent after the revert").to.equal(
      startNonce + 1,
    );
    expect(await bridged()).to.equal(bridgedBefore);
  });
});
