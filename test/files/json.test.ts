import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { readJsonFile } from "../../tasks/files/json.js";

/** The error each case makes, named so a test sees which one was thrown. */
const errors = {
  missing: () => new Error("missing"),
  unreadable: (reason: string) => new Error(`unreadable: ${reason}`),
  notJson: (reason: string) => new Error(`not JSON: ${reason}`),
};

async function thrown(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  return expect.fail("expected a refusal");
}

describe("reading a JSON file the tool is given", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-json-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("gives the value of a JSON file", async () => {
    const file = path.join(dir, "good.json");
    await writeFile(file, '{"a": [1, "two"]}');
    expect(await readJsonFile(file, errors)).to.deep.equal({ a: [1, "two"] });
  });

  it("refuses a missing file with `missing`, or as unreadable when the caller has no such error", async () => {
    const file = path.join(dir, "absent.json");
    expect(await thrown(readJsonFile(file, errors))).to.equal("missing");
    const { missing: _missing, ...withoutMissing } = errors;
    expect(await thrown(readJsonFile(file, withoutMissing))).to.match(
      /^unreadable: ENOENT/,
    );
  });

  it("refuses a file that is not JSON with the parser's reason", async () => {
    const file = path.join(dir, "cut.json");
    await writeFile(file, '{"a": [1, "tw');
    expect(await thrown(readJsonFile(file, errors))).to.match(
      /^not JSON: .*(JSON|position)/,
    );
  });

  it("refuses what cannot be read as a file (a folder) as unreadable", async () => {
    expect(await thrown(readJsonFile(dir, errors))).to.match(
      /^unreadable: EISDIR/,
    );
  });
});
