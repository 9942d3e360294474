import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { currentRecord } from "../../tasks/journal/earlier-records.js";
import { Journal, type JournalRecord } from "../../tasks/journal/journal.js";
import { nextAction } from "../../tasks/journal/next-action.js";
import { batchesOf } from "../../tasks/journal/state.js";
import type { TransactionRecord } from "../../tasks/journal/transaction-records.js";
import { transactionStateOf } from "../../tasks/journal/transaction-state.js";

const HASH =
  "0x5c0a0f8e5e7fa0bd2c2a6b1d3b8f2f9c1c1e2d3f4a5b6c7d8e9f0a1b2c3d4e5f";
const HASH_2 =
  "0x9d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e";
/** `finalizeStage(5)`'s calldata. */
const FINALIZE_5 =
  "0x17abbd500000000000000000000000000000000000000000000000000000000000000005";

/**
 * Finalization journals as the released versions wrote them, line for line
 * (copied from runs of tasks/contract/finalize.ts before the transaction
 * records were shared; the first shape is that before the fence added
 * `data`), and what this version reads from them.
 */
const FINALIZE_JOURNALS: Record<
  string,
  { lines: string[]; status: string; action: string }
> = {
  "a finalization before the fence (a sending record without calldata)": {
    lines: [
      '{"type":"sending","nonce":7,"block":7,"at":"2026-11-23T10:00:00.000Z"}',
    ],
    status: "sending",
    action: "check-nonce",
  },
  "a finalization never broadcast (unsent)": {
    lines: [
      `{"type":"sending","nonce":5,"block":5,"at":"2026-11-23T10:00:00.000Z","data":"${FINALIZE_5}"}`,
      '{"type":"unsent","nonce":5,"reason":"never broadcast"}',
    ],
    status: "dropped",
    action: "resend",
  },
  "a finalization gone from the node (unsent after sent)": {
    lines: [
      `{"type":"sending","nonce":14,"block":14,"at":"2026-11-26T14:17:43.477Z","data":"${FINALIZE_5}"}`,
      '{"type":"sent","nonce":14,"hash":"0x0fbe7052c7874accc16ff77277f9202721e80afd1e0073037cbd8533b63c463a"}',
      '{"type":"unsent","nonce":14,"reason":"0x0fbe7052c7874accc16ff77277f9202721e80afd1e0073037cbd8533b63c463a is no longer known to the node"}',
    ],
    status: "dropped",
    action: "resend",
  },
  "a finalization resent after unsent, then confirmed": {
    lines: [
      '{"type":"sending","nonce":7,"block":7,"at":"2026-11-23T10:00:00.000Z"}',
      '{"type":"unsent","nonce":7,"reason":"used by another transaction"}',
      `{"type":"sending","nonce":8,"block":8,"at":"2026-11-26T14:17:43.423Z","data":"${FINALIZE_5}"}`,
      '{"type":"sent","nonce":8,"hash":"0x572b6f6a94d87bbc7253fc2e9158c211f2d310b73807fe6fb53411c97d6ffc93"}',
      '{"type":"confirmed","hash":"0x572b6f6a94d87bbc7253fc2e9158c211f2d310b73807fe6fb53411c97d6ffc93","blockNumber":9,"gasUsed":"30813","status":1}',
    ],
    status: "confirmed",
    action: "done",
  },
};

describe("journals written by earlier versions", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-earlier-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function journalOf(lines: string[]): Promise<string> {
    const file = path.join(dir, "stage-5.finalize.jsonl");
    await writeFile(file, lines.map((line) => `${line}\n`).join(""));
    return file;
  }

  for (const [name, journal] of Object.entries(FINALIZE_JOURNALS)) {
    it(`reads ${name}`, async () => {
      const { records } = await Journal.open<TransactionRecord>(
        await journalOf(journal.lines),
        currentRecord,
      );
      expect(records.map((r) => r.type)).to.not.include("unsent");
      const state = transactionStateOf(records);
      expect(state.status).to.equal(journal.status);
      expect(nextAction(state).action).to.equal(journal.action);
    });
  }

  it("reads an unsent record as dropped, every field kept", async () => {
    const { records } = await Journal.open<TransactionRecord>(
      await journalOf([
        '{"type":"unsent","nonce":7,"reason":"never broadcast"}',
      ]),
      currentRecord,
    );
    expect(records).to.deep.equal([
      { type: "dropped", nonce: 7, reason: "never broadcast" },
    ]);
  });

  it("keeps a fenceless sending record's nonce and height, and no calldata", async () => {
    const { records } = await Journal.open<TransactionRecord>(
      await journalOf([
        '{"type":"sending","nonce":7,"block":41,"at":"2026-11-23T10:00:00.000Z"}',
      ]),
      currentRecord,
    );
    expect(transactionStateOf(records)).to.deep.equal({
      status: "sending",
      nonce: 7,
      block: 41,
    });
  });

  it("reads a mined record (as transfers write a receipt) as confirmed", async () => {
    const { records } = await Journal.open<TransactionRecord>(
      await journalOf([
        `{"type":"sending","step":"approve","chainId":"31337","from":"0x01","nonce":2,"to":"0x02","data":"0x","value":"0","fromBlock":9}`,
        `{"type":"sent","step":"approve","hash":"${HASH}"}`,
        `{"type":"mined","step":"approve","hash":"${HASH}","block":12,"status":1}`,
      ]),
      currentRecord,
    );
    expect(records.at(-1)).to.deep.include({
      type: "confirmed",
      hash: HASH,
      blockNumber: 12,
      status: 1,
    });
    expect(nextAction(transactionStateOf(records)).action).to.equal("done");
  });

  it("reads a Cosmos transfer step's mined record as confirmed, its log kept", () => {
    // As tasks/transfer/cosmos.ts wrote a transaction in a block before the
    // shared records (its height as block, the chain's log, no gas).
    const mined = JSON.parse(
      `{"type":"mined","step":"tx0","hash":"${HASH.slice(2).toUpperCase()}","block":8,"status":0,"log":"out of gas"}`,
    ) as { type: string };
    const record = currentRecord<TransactionRecord & { log?: string }>(mined);
    expect(record).to.deep.equal({
      type: "confirmed",
      step: "tx0",
      hash: HASH.slice(2).toUpperCase(),
      blockNumber: 8,
      gasUsed: "0",
      status: 0,
      log: "out of gas",
    });
    expect(nextAction(transactionStateOf([record])).action).to.equal(
      "reverted",
    );
  });

  it("reads a push's journal of every released version unchanged: the start without an intent, a dropped batch resent, a proof without a block", async () => {
    const lines = [
      `{"type":"start","chainId":"31337","contract":"0x5FbDB2315678afecb367f032d93F642f64180aa3","stage":"1","signer":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","file":"/tmp/scores.csv","sha256":"${"ab".repeat(32)}","entries":4,"startBlock":1,"at":"2026-11-23T10:00:00.000Z"}`,
      '{"type":"batch","batch":0,"start":0,"end":2,"gasLimit":"160000"}',
      '{"type":"sending","batch":0,"nonce":1}',
      '{"type":"batch","batch":1,"start":2,"end":4,"gasLimit":"160000"}',
      '{"type":"sending","batch":1,"nonce":2}',
      `{"type":"sent","batch":0,"nonce":1,"hash":"${HASH}"}`,
      `{"type":"confirmed","batch":0,"hash":"${HASH}","blockNumber":2,"gasUsed":"121000","status":1}`,
      '{"type":"dropped","batch":1,"reason":"nonce 2 was never broadcast"}',
      '{"type":"sending","batch":1,"nonce":2}',
      `{"type":"sent","batch":1,"nonce":2,"hash":"${HASH_2}"}`,
      '{"type":"verified","differences":0,"at":"2026-11-23T10:01:00.000Z"}',
    ];
    const file = path.join(dir, "stage-1.jsonl");
    await writeFile(file, lines.map((line) => `${line}\n`).join(""));
    const journal = await Journal.open<JournalRecord>(file, currentRecord);
    expect(journal.records).to.deep.equal(lines.map((l) => JSON.parse(l)));
    expect(journal.start?.intent).to.equal(undefined);
    const batches = batchesOf(journal.records);
    expect(batches.map((b) => nextAction(b.state).action)).to.deep.equal([
      "done",
      "wait-for-receipt",
    ]);
    expect(batches[0]?.state).to.deep.equal({
      status: "confirmed",
      hash: HASH,
      blockNumber: 2,
      gasUsed: 121000n,
      success: true,
    });
  });
});
