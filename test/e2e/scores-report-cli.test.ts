import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { failure } from "../helpers/failure.js";
import { runHardhat } from "../helpers/hardhat-cli.js";
import {
  address,
  BIG_SCORE,
  tempDir,
  writePolicy,
  writeStage,
} from "../report/fixture.js";

describe("scores:report as a user runs it", () => {
  let dir: string;
  let scoresDir: string;
  before(async () => {
    dir = await tempDir();
    scoresDir = path.join(dir, "scores");
    const policy = await writePolicy(dir);
    await writeStage(scoresDir, policy, 1n, { [address(1)]: 3n });
    await writeStage(scoresDir, policy, 2n, {
      [address(1)]: BIG_SCORE,
      [address(2)]: 9n,
    });
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("writes the index, a page per stage and the files beside them", async () => {
    const out = path.join(dir, "site");
    const result = await runHardhat([
      "scores:report",
      "--scores-dir",
      scoresDir,
      "--policy",
      dir,
      "--out",
      out,
    ]);
    expect(result.code, result.output).to.equal(0);
    expect(result.stdout).to.include(out);
    for (const file of ["index.html", "stage-1.html", "stage-2.html"])
      expect(existsSync(path.join(out, file)), file).to.equal(true);
    // The total, exact, grouped by thousands.
    expect(BIG_SCORE + 9n).to.equal(1_152_921_504_730_303_774n);
    expect(await readFile(path.join(out, "stage-2.html"), "utf8")).to.include(
      ">1,152,921,504,730,303,774<",
    );
    // The lookup's data holds the score as the CSV does.
    expect(
      await readFile(path.join(out, "data", "stage-2", "0.js"), "utf8"),
    ).to.include(`${address(1).slice(2)},${BIG_SCORE},1`);
  });

  it("refuses an --out that is a file, and writes nothing", async () => {
    const out = path.join(dir, "a-file");
    await writeFile(out, "mine");
    const result = await runHardhat([
      "scores:report",
      "--scores-dir",
      scoresDir,
      "--out",
      out,
    ]);
    expect(failure(result, ERRORS.REPORT.SITE.OUT_IS_FILE)).to.include(out);
    expect(await readFile(out, "utf8")).to.equal("mine");
  });
});
