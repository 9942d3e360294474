import {
  readdir,
  readFile,
  writeFile,
  mkdir,
  appendFile,
} from "node:fs/promises";
import path from "node:path";

import { expect } from "chai";

import {
  address,
  BIG_SCORE,
  SOURCE_DIGEST,
  tempDir,
  writePolicy,
  writeStage,
} from "./fixture.js";
import { reportAction } from "../../tasks/commands/scores-report/action.js";
import { ERRORS } from "../../tasks/error-catalog.js";
import { buildReport } from "../../tasks/report/build.js";
import { refusal } from "../helpers/failure.js";

/** Two stages: the first final, the second live, with changes between them. */
async function scoresDir(): Promise<string> {
  const dir = await tempDir();
  const policy = await writePolicy(dir);
  await writeStage(dir, policy, 1n, {
    [address(1)]: 100n,
    [address(2)]: 50n,
    [address(3)]: 7n,
  });
  await writeStage(
    dir,
    policy,
    2n,
    { [address(1)]: BIG_SCORE, [address(2)]: 50n, [address(4)]: 9n },
    false,
  );
  return dir;
}

/** Every file under `dir` by its path from there (`/` between folders). */
async function filesOf(dir: string): Promise<Map<string, Buffer>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path
        .relative(dir, path.join(entry.parentPath, entry.name))
        .split(path.sep)
        .join("/"),
    )
    .sort();
  return new Map(
    await Promise.all(
      names.map(
        async (name) => [name, await readFile(path.join(dir, name))] as const,
      ),
    ),
  );
}

async function exists(file: string): Promise<boolean> {
  return readdir(path.dirname(file)).then((names) =>
    names.includes(path.basename(file)),
  );
}

describe("scores:report's site", () => {
  it("writes the index, a page per stage and the files beside them", async () => {
    const dir = await scoresDir();
    const out = path.join(await tempDir(), "site");
    const built = await buildReport({ scoresDir: dir, out });
    expect(built.stages).to.deep.equal([1n, 2n]);
    const files = await filesOf(out);
    expect([...files.keys()]).to.include.members([
      ".vip-report",
      "index.html",
      "stage-1.html",
      "stage-2.html",
      "stage-1.final.csv",
      "stage-2.csv",
      "stage-1.manifest.json",
      "stage-2.manifest.json",
    ]);
    for (const name of [
      "stage-1.final.csv",
      "stage-2.csv",
      "stage-2.manifest.json",
    ])
      expect(files.get(name)).to.deep.equal(
        await readFile(path.join(dir, name)),
      );
    // The policy under the name its manifests give it.
    expect(files.get("perp-volume.sql")).to.deep.equal(
      await readFile(path.join(dir, "perp-volume.sql")),
    );
    // The lookup's scripts and each stage's shards (a stage this small has one).
    expect([...files.keys()]).to.include.members([
      "site.js",
      "lookup.js",
      "data/stage-1/0.js",
      "data/stage-2/0.js",
    ]);
    const shard = files.get("data/stage-2/0.js")?.toString() ?? "";
    expect(shard).to.include(`${address(1).slice(2)},${BIG_SCORE},1`);
    const index = files.get("index.html")?.toString() ?? "";
    // Each end of a window kept whole on a line: a phone wraps between them.
    expect(index).to.include(
      '<span class="nowrap">2026-01-01 00:00:00 UTC</span> – ' +
        '<span class="nowrap">2026-01-02 00:00:00 UTC</span>',
    );
    expect(index).to.match(/stage-2\.html[^]*live[^]*stage-1\.html[^]*final/);
    const stage2 = files.get("stage-2.html")?.toString() ?? "";
    // The total, exact and grouped by thousands.
    expect(BIG_SCORE + 59n).to.equal(1_152_921_504_730_303_824n);
    expect(stage2).to.include(">1,152,921,504,730,303,824<");
    expect(stage2).to.include("Changes from stage 1");
    expect(stage2).to.include("1 new, 1 gone, 1 with another score.");
  });

  it("shows a challenger the blocks, the sources' digests, the policy and the audit command", async () => {
    const dir = await scoresDir();
    const out = path.join(await tempDir(), "site");
    await buildReport({ scoresDir: dir, out, network: "my-rollup" });
    const stage2 = await readFile(path.join(out, "stage-2.html"), "utf8");
    const manifest = JSON.parse(
      await readFile(path.join(dir, "stage-2.manifest.json"), "utf8"),
    );
    for (const fact of [
      manifest.blocks.first.number,
      manifest.blocks.last.number,
      manifest.blocks.last.hash,
      manifest.policy.sha256,
      manifest.output.sha256,
      SOURCE_DIGEST(2n).sha256,
      "2,468", // the source's logs, grouped
    ])
      expect(stage2).to.include(fact);
    expect(stage2).to.include('<a class="file" href="perp-volume.sql">');
    expect(stage2).to.include(
      "npx hardhat scores:audit --network my-rollup --policy perp-volume.sql " +
        "--stage 2 --manifest stage-2.manifest.json",
    );
    expect(stage2).to.include(
      "npx hardhat scores:explain --network my-rollup --policy perp-volume.sql " +
        "--stage 2 --address ",
    );
  });

  it("gives the same bytes for the same inputs, so a challenger can rebuild and diff", async () => {
    const dir = await scoresDir();
    const [a, b] = [
      path.join(await tempDir(), "a"),
      path.join(await tempDir(), "b"),
    ];
    await buildReport({ scoresDir: dir, out: a });
    await buildReport({ scoresDir: dir, out: b });
    expect(await filesOf(a)).to.deep.equal(await filesOf(b));
    // And again into the same folder, replacing the earlier report whole.
    await buildReport({ scoresDir: dir, out: a });
    expect(await filesOf(a)).to.deep.equal(await filesOf(b));
  });

  it("after a killed run, ends as an uninterrupted run: its staging folder and an old site moved aside are gone", async () => {
    const dir = await scoresDir();
    const parent = await tempDir();
    const out = path.join(parent, "site");
    const clean = path.join(await tempDir(), "clean");
    await buildReport({ scoresDir: dir, out: clean });
    // As a kill leaves it: half a staging folder, and the old site moved
    // aside with none in its place; beside them a folder not of ours.
    await mkdir(path.join(parent, ".site.new-Ab12Cd", "data"), {
      recursive: true,
    });
    await mkdir(path.join(parent, ".site.new-Xy34Zw.old"));
    await mkdir(path.join(parent, ".site.new-notours"));
    await buildReport({ scoresDir: dir, out });
    expect(await filesOf(out)).to.deep.equal(await filesOf(clean));
    expect((await readdir(parent)).sort()).to.deep.equal([
      ".site.new-notours",
      "site",
    ]);
  });

  it("shows what the contract says of each stage when asked", async () => {
    const out = path.join(await tempDir(), "site");
    await buildReport({
      scoresDir: await scoresDir(),
      out,
      finalizedOnChain: async (stage) => stage === 1n,
    });
    const index = await readFile(path.join(out, "index.html"), "utf8");
    expect(index).to.include("final, finalized on chain");
    expect(index).to.include("live, not finalized on chain");
  });

  it("runs as the task's action, printing where the site is", async () => {
    const out = path.join(await tempDir(), "site");
    const lines: string[] = [];
    const hre = (await import("hardhat")).default;
    await reportAction({ scoresDir: await scoresDir(), out }, hre, {
      line: (text) => lines.push(text),
      warn: (text) => lines.push(text),
    });
    expect(lines.join("\n")).to.match(/stages\s+1, 2/);
    expect(await exists(path.join(out, "index.html"))).to.equal(true);
  });

  describe("refuses bad input, naming the file, and writes nothing", () => {
    async function refused(
      dir: string,
      expected:
        | (typeof ERRORS.REPORT.SITE)[keyof typeof ERRORS.REPORT.SITE]
        | typeof ERRORS.SCORES.FILE.INVALID_FILE,
      out?: string,
      policy?: string,
    ): Promise<string> {
      const target = out ?? path.join(await tempDir(), "site");
      const { message } = await refusal(
        buildReport({
          scoresDir: dir,
          out: target,
          ...(policy === undefined ? {} : { policy }),
        }),
        expected,
      );
      if (out === undefined) expect(await exists(target)).to.equal(false);
      expect(await readdir(path.dirname(target))).to.not.satisfy(
        (names: string[]) => names.some((name) => name.includes(".new-")),
      );
      return message;
    }

    it("a folder with no score files", async () => {
      const dir = await tempDir();
      expect(await refused(dir, ERRORS.REPORT.SITE.NO_SCORE_FILES)).to.include(
        dir,
      );
      expect(
        await refused(
          path.join(dir, "nope"),
          ERRORS.REPORT.SITE.SCORES_DIR_UNREADABLE,
        ),
      ).to.include("nope");
    });

    it("a manifest whose sha256 is not its file's", async () => {
      const dir = await scoresDir();
      await appendFile(path.join(dir, "stage-2.csv"), `${address(9)},1\n`);
      const message = await refused(dir, ERRORS.REPORT.SITE.MANIFEST_MISMATCH);
      expect(message)
        .to.include("stage-2.manifest.json")
        .and.include("stage-2.csv");
      expect(message).to.include("sha256");
    });

    it("a malformed CSV, with the reader's own error and line", async () => {
      const dir = await scoresDir();
      await writeFile(
        path.join(dir, "stage-3.csv"),
        "address,score\n0x12,abc\n",
      );
      const message = await refused(dir, ERRORS.SCORES.FILE.INVALID_FILE);
      expect(message).to.include(`${path.join(dir, "stage-3.csv")}:2:`);
    });

    it("a manifest that is not one", async () => {
      const dir = await scoresDir();
      await writeFile(path.join(dir, "stage-1.manifest.json"), `{"stage":"1"}`);
      expect(
        await refused(dir, ERRORS.REPORT.SITE.MANIFEST_UNREADABLE),
      ).to.include("stage-1.manifest.json");
    });

    it("a policy that is missing, or not the one the stage was computed with", async () => {
      const dir = await scoresDir();
      const elsewhere = await tempDir();
      expect(
        await refused(
          dir,
          ERRORS.REPORT.SITE.POLICY_NOT_FOUND,
          undefined,
          elsewhere,
        ),
      ).to.include("perp-volume.sql");
      await appendFile(path.join(dir, "perp-volume.sql"), "-- edited\n");
      expect(await refused(dir, ERRORS.REPORT.SITE.POLICY_MISMATCH)).to.include(
        "perp-volume.sql",
      );
    });

    it("an --out that is a file, or a folder of other files", async () => {
      const dir = await scoresDir();
      const file = path.join(await tempDir(), "site");
      await writeFile(file, "mine");
      await refused(dir, ERRORS.REPORT.SITE.OUT_IS_FILE, file);
      expect(await readFile(file, "utf8")).to.equal("mine");
      const folder = path.join(await tempDir(), "docs");
      await mkdir(folder);
      await writeFile(path.join(folder, "notes.txt"), "mine");
      await refused(dir, ERRORS.REPORT.SITE.OUT_NOT_A_REPORT, folder);
      expect(await readdir(folder)).to.deep.equal(["notes.txt"]);
    });
  });
});
