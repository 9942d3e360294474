import { existsSync } from "node:fs";
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import {
  refuseOutFile,
  writeComparisonFiles,
} from "../../tasks/compare/write-files.js";
import { ERRORS } from "../../tasks/error-catalog.js";
import { refusal } from "../helpers/failure.js";

describe("scores:compare's files", () => {
  let work: string;
  beforeEach(async () => {
    work = await mkdtemp(path.join(tmpdir(), "vip-compare-files-"));
  });
  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it("writes text whole and in chunks into a new folder, replacing an earlier comparison", async () => {
    const out = path.join(work, "out");
    const files = (csv: string[]) => [
      { name: "compare.html", content: "<p>page</p>\n" },
      { name: "compare.csv", content: csv },
    ];
    await writeComparisonFiles(out, files(["a\n", "b\n"]));
    await writeComparisonFiles(out, files(["c\n", "d\n", "e\n"]));
    expect(await readFile(path.join(out, "compare.csv"), "utf8")).to.equal(
      "c\nd\ne\n",
    );
    expect((await readdir(out)).sort()).to.deep.equal([
      "compare.csv",
      "compare.html",
    ]);
  });

  it("leaves nothing behind when a file fails half-way: no file, no folder it made", async () => {
    const out = path.join(work, "out");
    function* failing(): Generator<string> {
      yield "address,score\n";
      throw new Error("the disk is full");
    }
    const error = await refusal(
      writeComparisonFiles(out, [
        { name: "compare.html", content: "<p>page</p>\n" },
        { name: "compare.csv", content: failing() },
      ]),
      ERRORS.REPORT.COMPARE.COMPARE_OUT_UNWRITABLE,
    );
    expect(error.params.reason).to.equal("the disk is full");
    expect(existsSync(out)).to.equal(false);

    // In a folder that was there, its own files are kept and no new one appears.
    await mkdir(out);
    await writeFile(path.join(out, "notes.txt"), "mine");
    await refusal(
      writeComparisonFiles(out, [
        { name: "compare.html", content: "<p>page</p>\n" },
        { name: "compare.csv", content: failing() },
      ]),
      ERRORS.REPORT.COMPARE.COMPARE_OUT_UNWRITABLE,
    );
    expect(await readdir(out)).to.deep.equal(["notes.txt"]);
  });

  it("refuses an --out that is a file, and accepts a folder or a path not there yet", async () => {
    const file = path.join(work, "a-file");
    await writeFile(file, "x");
    const error = await refusal(
      refuseOutFile(file),
      ERRORS.REPORT.COMPARE.COMPARE_OUT_IS_FILE,
    );
    expect(error.params.out).to.equal(file);
    await refuseOutFile(work);
    await refuseOutFile(path.join(work, "new"));
    expect(existsSync(path.join(work, "new"))).to.equal(false);
  });
});
