import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { Journal } from "../../tasks/journal/journal.js";
import {
  cosmosNextAction,
  cosmosStepState,
} from "../../tasks/transfer/cosmos-step-state.js";
import { hookSequenceGuard } from "../../tasks/transfer/hook.js";
import type { TransferRecord } from "../../tasks/transfer/records.js";
import {
  stepState,
  stepsOf,
  transactionsOut,
} from "../../tasks/transfer/step-state.js";

const HASH = "A1".repeat(32);
const EVM_HASH = `0x${"b2".repeat(32)}`;
const TX_BYTES = Buffer.from("signed bytes").toString("base64");

/** A Cosmos step's records as this version writes them, in order. */
const SIGNED: TransferRecord = {
  type: "cosmos-signed",
  step: "tx0",
  chainId: "interwoven-1",
  signer: "init1x",
  sequence: "5",
  hash: HASH,
  txBytes: TX_BYTES,
};
const SENT: TransferRecord = {
  type: "sent",
  step: "tx0",
  nonce: 5,
  hash: HASH,
};
const CONFIRMED: TransferRecord = {
  type: "confirmed",
  step: "tx0",
  hash: HASH,
  blockNumber: 12,
  gasUsed: "0",
  status: 1,
  log: "",
};

describe("a Cosmos step's state and next action, from its records", () => {
  it("names each kill point's next action: send, check-nonce, wait-for-receipt, done", () => {
    const records = [SIGNED, SENT, CONFIRMED];
    const actions = [0, 1, 2, 3].map(
      (k) =>
        cosmosNextAction(cosmosStepState(records.slice(0, k), "tx0")).action,
    );
    expect(actions).to.deep.equal([
      "send",
      "check-nonce",
      "wait-for-receipt",
      "done",
    ]);
  });

  it("reads cosmos-signed as the step's sending, its sequence the nonce, its bytes kept for a resend", () => {
    const step = cosmosStepState([SIGNED], "tx0");
    expect(step.state).to.deep.equal({ status: "sending", nonce: 5 });
    expect(stepState([SIGNED], "tx0")).to.deep.equal(step.state);
    const next = cosmosNextAction(step);
    if (next.action !== "check-nonce") expect.fail(next.action);
    expect(next.signed.hash).to.equal(HASH);
    expect(next.signed.sequence).to.equal(5n);
    expect(Buffer.from(next.signed.txBytes).toString("base64")).to.equal(
      TX_BYTES,
    );
    // Sent, the bytes are still there for the chain that forgot them.
    const sent = cosmosNextAction(cosmosStepState([SIGNED, SENT], "tx0"));
    if (sent.action !== "wait-for-receipt") expect.fail(sent.action);
    expect(sent.signed.hash).to.equal(HASH);
  });

  it("reads a confirmed record of status 0 as reverted, with the chain's log", () => {
    const failed = { ...CONFIRMED, status: 0, log: "out of gas" };
    expect(
      cosmosNextAction(cosmosStepState([SIGNED, SENT, failed], "tx0")),
    ).to.deep.equal({ action: "reverted", hash: HASH, log: "out of gas" });
  });

  it("reads a refusal as refused, never sent again, unless the transaction was in a block after all", () => {
    const refused: TransferRecord = {
      type: "refused",
      step: "tx0",
      hash: HASH,
      code: 32,
      log: "interwoven-1 refused it with code 32: wrong sequence",
    };
    expect(
      cosmosNextAction(cosmosStepState([SIGNED, refused], "tx0")),
    ).to.deep.equal({ action: "refused", hash: HASH, log: refused.log });
    expect(
      cosmosNextAction(cosmosStepState([SIGNED, refused, CONFIRMED], "tx0"))
        .action,
    ).to.equal("done");
  });

  it("reads only its own step's records", () => {
    const other = { ...SIGNED, step: "tx1" };
    expect(
      cosmosNextAction(cosmosStepState([other, SENT], "tx1")).action,
    ).to.equal("check-nonce");
    expect(cosmosStepState([other], "tx0").state.status).to.equal("planned");
  });
});

describe("what a transfer journal says went out", () => {
  const evm: TransferRecord[] = [
    {
      type: "sending",
      step: "tx0-approve0",
      chainId: "31337",
      from: "0x01",
      nonce: 2,
      to: "0x02",
      data: "0x",
      value: "0",
      block: 2,
    },
    { type: "sent", step: "tx0-approve0", nonce: 2, hash: EVM_HASH },
  ];

  it("lists the steps in order, and the hashes of those sent or confirmed", () => {
    expect(stepsOf([...evm, { ...SIGNED, step: "tx1" }])).to.deep.equal([
      "tx0-approve0",
      "tx1",
    ]);
    expect(transactionsOut([SIGNED])).to.deep.equal([]);
    expect(transactionsOut([...evm, SIGNED, SENT])).to.deep.equal([
      EVM_HASH,
      HASH,
    ]);
  });

  it("counts a transaction found in a block without a sent record as out", () => {
    // A restart that finds the signed transaction by its hash journals its
    // inclusion only.
    expect(transactionsOut([SIGNED, CONFIRMED])).to.deep.equal([HASH]);
  });

  describe("the op hook's sequence check", () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(path.join(tmpdir(), "vip-step-state-"));
    });
    afterEach(() => rm(dir, { recursive: true, force: true }));

    const hook: TransferRecord = {
      type: "hook",
      chainId: "rehearsal-1",
      signer: "init1x",
      accountNumber: "3",
      sequence: "0",
      baseSequence: "0",
      signedOpHook: { signer: "init1x", hook: "" },
    };

    /** Whether the check asks the hook's chain, for a journal of `records`. */
    async function asks(records: TransferRecord[]): Promise<boolean> {
      const journal = await Journal.open<TransferRecord>(
        path.join(dir, "transfer.jsonl"),
      );
      await journal.append(...records);
      let asked = false;
      await hookSequenceGuard(journal, () => {
        asked = true;
        return Promise.reject(new Error("the hook's chain was asked"));
      })().catch(() => undefined);
      return asked;
    }

    it("runs while nothing went out, and not once a transaction did (sent, or found in a block)", async () => {
      expect(await asks([hook, SIGNED])).to.equal(true);
      await rm(path.join(dir, "transfer.jsonl"));
      expect(await asks([hook, SIGNED, SENT])).to.equal(false);
      await rm(path.join(dir, "transfer.jsonl"));
      expect(await asks([hook, SIGNED, CONFIRMED])).to.equal(false);
    });
  });
});
