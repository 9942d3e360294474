import { appendFile, mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { HardhatError } from "@nomicfoundation/hardhat-errors";
import { expect } from "chai";

import {
  finalizeJournalPath,
  Journal,
  journalPath,
  type JournalRecord,
} from "../../tasks/journal/journal.js";
import { batchesOf } from "../../tasks/journal/state.js";

const CONTRACT = "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01";

describe("the push journal", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-journal-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("names a stage's journal by chain, lower-cased contract and stage", () => {
    const file = journalPath(dir, 1n, CONTRACT, 7n);
    expect(path.relative(dir, file)).to.equal(
      path.join("chain-1", CONTRACT.toLowerCase(), "stage-7.jsonl"),
    );
    expect(finalizeJournalPath(dir, 1n, CONTRACT, 7n)).to.equal(
      file.replace(/\.jsonl$/, ".finalize.jsonl"),
    );
  });

  it("reads back what it appended, in call order, one record a line", async () => {
    const file = journalPath(dir, 1n, CONTRACT, 1n);
    const journal = await Journal.open(file);
    const records: JournalRecord[] = [
      { type: "batch", batch: 0, start: 0, end: 2, gasLimit: "100" },
      { type: "sending", batch: 0, nonce: 4 },
    ];
    await Promise.all([
      journal.append(defined(records[0])),
      journal.append(defined(records[1])),
    ]);
    const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
    expect(lines.map((line) => JSON.parse(line))).to.deep.equal(records);
    expect((await Journal.open(file)).records).to.deep.equal(records);
  });

  it("keeps every whole record before one torn by a kill", async () => {
    const file = journalPath(dir, 1n, CONTRACT, 2n);
    const journal = await Journal.open(file);
    await journal.append({
      type: "batch",
      batch: 0,
      start: 0,
      end: 1,
      gasLimit: "1",
    });
    await appendFile(file, '{"type":"sending","batch":0,"no');
    const reopened = await Journal.open(file);
    expect(reopened.records.map((record) => record.type)).to.deep.equal([
      "batch",
    ]);
  });

  it("moves itself aside to start a stage over, and forgets its records", async () => {
    const file = journalPath(dir, 1n, CONTRACT, 3n);
    const journal = await Journal.open(file);
    await journal.append({ type: "verified", differences: 0, at: "now" });
    const archived = await journal.archive();
    expect(archived).to.match(/stage-3\.[0-9TZ-]+\.jsonl$/);
    expect(journal.records).to.deep.equal([]);
    expect(await readdir(path.dirname(file))).to.deep.equal([
      path.basename(archived),
    ]);
  });

  it("gives each batch the last state the journal recorded for it", () => {
    const batches = batchesOf([
      { type: "batch", batch: 0, start: 0, end: 2, gasLimit: "9" },
      { type: "batch", batch: 1, start: 2, end: 4, gasLimit: "9" },
      { type: "sending", batch: 0, nonce: 5 },
      { type: "sent", batch: 0, nonce: 5, hash: "0x01" },
      {
        type: "confirmed",
        batch: 0,
        hash: "0x01",
        blockNumber: 12,
        gasUsed: "21000",
        status: 1,
      },
      { type: "sending", batch: 1, nonce: 6 },
      { type: "dropped", batch: 1, reason: "replaced" },
    ]);
    expect(batches.map((batch) => batch.state)).to.deep.equal([
      {
        status: "confirmed",
        hash: "0x01",
        blockNumber: 12,
        gasUsed: 21000n,
        success: true,
      },
      { status: "dropped" },
    ]);
  });

  it("refuses a record about a batch it never planned", () => {
    try {
      batchesOf([{ type: "sending", batch: 3, nonce: 1 }]);
      expect.fail("a record about an unplanned batch was accepted");
    } catch (error) {
      expect(
        HardhatError.isHardhatError(
          error,
          HardhatError.ERRORS.CORE.INTERNAL.ASSERTION_ERROR,
        ),
      ).to.equal(true);
    }
  });
});

function defined<T>(value: T | undefined): T {
  if (value === undefined) throw new Error("missing");
  return value;
}
