import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { isVipError } from "../../tasks/errors.js";
import { readScoreFile, ScoreFileError } from "../../tasks/scores/read.js";

const dir = await mkdtemp(path.join(tmpdir(), "vip-scores-"));
let n = 0;
async function file(name: string, text: string): Promise<string> {
  const full = path.join(dir, `${n++}-${name}`);
  await writeFile(full, text);
  return full;
}

async function problems(name: string, text: string): Promise<string[]> {
  const full = await file(name, text);
  try {
    await readScoreFile(full);
  } catch (error) {
    if (!(error instanceof ScoreFileError)) throw error;
    expect(isVipError(error, ERRORS.SCORES.FILE.INVALID_FILE)).to.equal(true);
    expect(error.params.file).to.equal(full);
    expect(error.params.count).to.equal(error.problemCount);
    // Each problem's line and what is wrong there: the values the error
    // lists, not its wording.
    return error.problems.map((p) => `${p.line}: ${p.message}`);
  }
  throw new Error("expected problems");
}

async function entriesOf(full: string) {
  return [...(await readScoreFile(full)).table.entries()];
}

const A = "0xd9F47946d2f9a5e65A420588dE201c9458949c62";
const B = "0x5721c8e66Caa2395bcd310e5c5Ddd1f3BE0b8794";

describe("score files", () => {
  it("reads CSV with its header, extra columns, lowercase addresses and blank lines", async () => {
    const entries = await entriesOf(
      await file(
        "ok.csv",
        `Score,address,note\n7,${A},first\n\n18446744073709551615,${B.toLowerCase()},max\n`,
      ),
    );
    expect(entries).to.deep.equal([
      { address: A, score: 7n, line: 2 },
      { address: B, score: 18446744073709551615n, line: 4 },
    ]);
  });

  it("reads JSON, keeping every digit of large integer scores", async () => {
    const json = `[\n  {"address": "${A}", "score": 18446744073709551615},\n  {"address": "${B}", "score": "12"}\n]`;
    expect(await entriesOf(await file("ok.json", json))).to.deep.equal([
      { address: A, score: 18446744073709551615n, line: 2 },
      { address: B, score: 12n, line: 3 },
    ]);
  });

  it("names the line of every problem in a CSV file", async () => {
    const csv = [
      "address,score",
      `${A},1`,
      `${A.toLowerCase()},2`,
      "0xD9F47946d2f9a5e65A420588dE201c9458949c63,3",
      "0x123,4",
      `${B},-5`,
      "0x5721c8e66caa2395bcd310e5c5ddd1f3be0b8795,1.5",
      "0x5721c8e66caa2395bcd310e5c5ddd1f3be0b8796,",
      "0x5721c8e66caa2395bcd310e5c5ddd1f3be0b8797,18446744073709551616",
      "0x0000000000000000000000000000000000000000,1",
      "0x5721c8e66caa2395bcd310e5c5ddd1f3be0b8798",
      "0x5721c8e66caa2395bcd310e5c5ddd1f3be0b8799,1e3",
    ].join("\n");
    expect(await problems("bad.csv", csv)).to.deep.equal([
      `3: address ${A.toLowerCase()} is a duplicate of line 2`,
      "4: address 0xD9F47946d2f9a5e65A420588dE201c9458949c63 has a bad checksum (expected 0xD9f47946d2f9a5e65a420588DE201c9458949C63)",
      '5: address "0x123" is not 0x followed by 40 hex digits',
      "6: score -5 is negative",
      '7: score "1.5" is not a whole number',
      "8: score is empty",
      "9: score 18446744073709551616 exceeds the uint64 maximum 18446744073709551615",
      "10: address is the zero address, which the contract skips",
      "11: has 1 field(s) where the header has 2: a column is missing",
      '12: score "1e3" is not a whole number',
    ]);
  });

  it("refuses a header without the score column", async () => {
    expect(
      await problems("header.csv", `address,points\n${A},1\n`),
    ).to.deep.equal([
      '1: the header lacks the column(s) score: the first line must name address and score, e.g. "address,score"',
    ]);
  });

  it("refuses an empty file and a header alone", async () => {
    expect(await problems("empty.csv", "")).to.deep.equal([
      "1: the file holds no scores",
    ]);
    expect(await problems("header-only.csv", "address,score\n")).to.deep.equal([
      "1: the file holds no scores",
    ]);
  });

  it("names the line of every problem in a JSON file", async () => {
    const json = `[\n {"address": "${A}", "score": 1},\n {"address": "${A}", "score": "2"},\n {"score": 1},\n {"address": "${B}", "score": 1.5},\n {"address": "${B}", "score": true},\n 7\n]`;
    expect(await problems("bad.json", json)).to.deep.equal([
      `3: address ${A} is a duplicate of line 2`,
      "4: the element lacks address",
      '5: score "1.5" is not a whole number',
      "6: score must be a string or a whole number",
      '7: each element must be an object with "address" and "score"',
    ]);
  });

  it("reports JSON that does not parse, and JSON that is not an array", async () => {
    expect(
      (await problems("broken.json", `[\n {"address": "${A}",\n]`))[0],
    ).to.match(/^\d+: is not valid JSON: /);
    expect(
      await problems("object.json", `{"address": "${A}", "score": 1}`),
    ).to.deep.equal([
      '1: the file must be a JSON array of {"address", "score"} objects',
    ]);
  });

  it("names a file that does not exist", async () => {
    const missing = path.join(dir, "missing.csv");
    let error: unknown;
    try {
      await readScoreFile(missing);
    } catch (caught) {
      error = caught;
    }
    if (!isVipError(error, ERRORS.SCORES.FILE.FILE_UNREADABLE))
      expect.fail(`expected FILE_UNREADABLE, got: ${String(error)}`);
    expect(error.params.file).to.equal(missing);
  });
});
