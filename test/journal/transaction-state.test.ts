import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { applyRecords } from "../../tasks/journal/apply-record.js";
import { currentRecord } from "../../tasks/journal/earlier-records.js";
import { Journal, type JournalRecord } from "../../tasks/journal/journal.js";
import { nextAction } from "../../tasks/journal/next-action.js";
import { batchesOf } from "../../tasks/journal/state.js";
import type { TransactionRecord } from "../../tasks/journal/transaction-records.js";
import {
  PLANNED,
  transactionStateOf,
  type TransactionState,
} from "../../tasks/journal/transaction-state.js";

const HASH_1 = `0x${"a1".repeat(32)}`;
const HASH_2 = `0x${"b2".repeat(32)}`;

const sending = (nonce: number): TransactionRecord => ({
  type: "sending",
  nonce,
});
const sent = (nonce: number, hash: string): TransactionRecord => ({
  type: "sent",
  nonce,
  hash,
});
const confirmed = (hash: string, status: number): TransactionRecord => ({
  type: "confirmed",
  hash,
  blockNumber: 40,
  gasUsed: "52000",
  status,
});
const dropped = (reason: string): TransactionRecord => ({
  type: "dropped",
  reason,
});

/** A step of a run: the record written, and what a run killed right after it must find. */
interface Step {
  record: TransactionRecord;
  state: TransactionState;
  action: ReturnType<typeof nextAction>["action"];
}

const SENDING_5: Step = {
  record: sending(5),
  state: { status: "sending", nonce: 5 },
  action: "check-nonce",
};
const SENT_5: Step = {
  record: sent(5, HASH_1),
  state: { status: "sent", nonce: 5, hash: HASH_1 },
  action: "wait-for-receipt",
};
const DROPPED: Step = {
  record: dropped("never broadcast"),
  state: { status: "dropped" },
  action: "resend",
};
const SENDING_6: Step = {
  record: sending(6),
  state: { status: "sending", nonce: 6 },
  action: "check-nonce",
};
const SENT_6: Step = {
  record: sent(6, HASH_2),
  state: { status: "sent", nonce: 6, hash: HASH_2 },
  action: "wait-for-receipt",
};
const confirmedStep = (hash: string, success: boolean): Step => ({
  record: confirmed(hash, success ? 1 : 0),
  state: {
    status: "confirmed",
    hash,
    blockNumber: 40,
    gasUsed: 52000n,
    success,
  },
  action: success ? "done" : "reverted",
});

/** Every path a transaction's records can take, start to end. */
const RUNS: Record<string, Step[]> = {
  "sent and confirmed": [SENDING_5, SENT_5, confirmedStep(HASH_1, true)],
  "never broadcast, then resent": [
    SENDING_5,
    DROPPED,
    SENDING_6,
    SENT_6,
    confirmedStep(HASH_2, true),
  ],
  "gone from the node after it was sent, then resent": [
    SENDING_5,
    SENT_5,
    { ...DROPPED, record: dropped(`${HASH_1} is no longer known`) },
    SENDING_6,
    SENT_6,
    confirmedStep(HASH_2, true),
  ],
  "out of gas, then resent": [
    SENDING_5,
    SENT_5,
    confirmedStep(HASH_1, false),
    { ...DROPPED, record: dropped("ran out of gas") },
    SENDING_6,
    SENT_6,
    confirmedStep(HASH_2, true),
  ],
  "reverted, nothing more": [SENDING_5, SENT_5, confirmedStep(HASH_1, false)],
};

describe("a transaction's state, replayed from its records", () => {
  it("is planned, to be sent, before any record", () => {
    expect(transactionStateOf([])).to.deep.equal({ status: "planned" });
    expect(nextAction(PLANNED).action).to.equal("send");
  });

  for (const [name, steps] of Object.entries(RUNS)) {
    it(`resumes from a kill after each record: ${name}`, () => {
      for (let kept = 1; kept <= steps.length; kept++) {
        const prefix = steps.slice(0, kept);
        const last = prefix[prefix.length - 1];
        const state = transactionStateOf(prefix.map((step) => step.record));
        expect(state, `after ${kept} records`).to.deep.equal(last?.state);
        expect(nextAction(state).action, `after ${kept} records`).to.equal(
          last?.action,
        );
      }
    });
  }

  it("hands each action what it needs: the nonce to check, the hash to follow, the receipt", () => {
    const checking = nextAction(
      transactionStateOf([
        { type: "sending", nonce: 3, block: 17, at: "t", data: "0xabcd" },
      ]),
    );
    expect(checking).to.deep.equal({
      action: "check-nonce",
      sending: { status: "sending", nonce: 3, block: 17, data: "0xabcd" },
    });
    const waiting = nextAction(
      transactionStateOf([sending(3), sent(3, HASH_1)]),
    );
    expect(waiting).to.deep.equal({
      action: "wait-for-receipt",
      sent: { status: "sent", nonce: 3, hash: HASH_1 },
    });
  });

  it("keeps each batch of a push apart, whatever the order their records interleave in", () => {
    const records: JournalRecord[] = [
      { type: "batch", batch: 0, start: 0, end: 2, gasLimit: "9" },
      { type: "sending", batch: 0, nonce: 5 },
      { type: "batch", batch: 1, start: 2, end: 4, gasLimit: "9" },
      { type: "sending", batch: 1, nonce: 6 },
      { type: "sent", batch: 0, nonce: 5, hash: HASH_1 },
      { type: "sent", batch: 1, nonce: 6, hash: HASH_2 },
      { type: "dropped", batch: 0, reason: "replaced" },
      {
        type: "confirmed",
        batch: 1,
        hash: HASH_2,
        blockNumber: 3,
        gasUsed: "1",
        status: 1,
      },
      { type: "sending", batch: 0, nonce: 7 },
    ];
    const expected = [
      ["send"],
      ["check-nonce"],
      ["check-nonce", "send"],
      ["check-nonce", "check-nonce"],
      ["wait-for-receipt", "check-nonce"],
      ["wait-for-receipt", "wait-for-receipt"],
      ["resend", "wait-for-receipt"],
      ["resend", "done"],
      ["check-nonce", "done"],
    ];
    for (let kept = 1; kept <= records.length; kept++) {
      const actions = batchesOf(records.slice(0, kept)).map(
        (batch) => nextAction(batch.state).action,
      );
      expect(actions, `after ${kept} records`).to.deep.equal(
        expected[kept - 1],
      );
    }
  });
});

describe("one call to write a step and move the state on", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-apply-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("leaves in memory what a run killed after that record reads back, at every record", async () => {
    for (const [name, steps] of Object.entries(RUNS)) {
      const file = path.join(dir, `${name}.jsonl`);
      const journal = await Journal.open<TransactionRecord>(file);
      const transaction = { state: PLANNED };
      for (const [index, step] of steps.entries()) {
        const state = await applyRecords(journal, transaction, step.record);
        expect(state, `${name}, record ${index + 1}`).to.deep.equal(step.state);
        expect(transaction.state).to.equal(state);
        const reread = await Journal.open<TransactionRecord>(
          file,
          currentRecord,
        );
        expect(transactionStateOf(reread.records)).to.deep.equal(step.state);
      }
    }
  });

  it("writes a push's batch record with its first send, and only the send moves the state", async () => {
    const file = path.join(dir, "stage-1.jsonl");
    const journal = await Journal.open(file);
    const batch = { batch: 0, start: 0, end: 2, state: PLANNED };
    await applyRecords(
      journal,
      batch,
      { type: "batch", batch: 0, start: 0, end: 2, gasLimit: "9" },
      { type: "sending", batch: 0, nonce: 4 },
    );
    expect(batch.state).to.deep.equal({ status: "sending", nonce: 4 });
    const reread = batchesOf((await Journal.open(file)).records);
    expect(reread).to.deep.equal([batch]);
  });
});
