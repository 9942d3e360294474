import { readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";

import { expect } from "chai";

import { address, tempDir, writePolicy, writeStage } from "./fixture.js";
import { ReportKeeper } from "../../tasks/report/keeper.js";

describe("a report kept current by the autopilot (--report-dir)", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("rebuilds when a score file changes or a stage is finalized, and not otherwise", async () => {
    const scoresDir = path.join(dir, "scores");
    const out = path.join(dir, "site");
    const policy = await writePolicy(dir);
    await writeStage(scoresDir, policy, 1n, { [address(1)]: 5n }, false);
    let finalized = false;
    const keeper = new ReportKeeper({
      scoresDir,
      out,
      policy: policy.file,
      finalizedOnChain: async () => finalized,
    });
    expect(await keeper.refresh(false)).to.equal(true);
    const first = await stat(path.join(out, "stage-1.html"));
    expect(await keeper.refresh(false)).to.equal(false);
    // A file that is no report input (the autopilot's status file, put in
    // the scores folder) changes no page: no rebuild.
    await writeFile(path.join(scoresDir, "status.json"), '{"pass":2}\n');
    expect(await keeper.refresh(false)).to.equal(false);

    await writeStage(scoresDir, policy, 1n, { [address(1)]: 7n }, true);
    expect(await keeper.refresh(false)).to.equal(true);
    const page = await readFile(path.join(out, "stage-1.html"), "utf8");
    expect(page).to.include(">7<");
    expect((await stat(path.join(out, "stage-1.html"))).ino).to.not.equal(
      first.ino,
    );

    const index = () => readFile(path.join(out, "index.html"), "utf8");
    expect(await index()).to.include("final, not finalized on chain");
    finalized = true;
    expect(await keeper.refresh(true)).to.equal(true);
    expect(await index()).to.include("final, finalized on chain");
  });
});
