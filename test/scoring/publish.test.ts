import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { isVipError } from "../../tasks/errors.js";
import { parsePolicy, type Policy } from "../../tasks/policy/parse.js";
import {
  scoreCsv,
  stageManifest,
  writeStageFiles,
} from "../../tasks/scoring/publish.js";
import { packRows } from "../../tasks/scoring/score-rows.js";

const SQL = `-- @policy perp
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional)
select trader as address, sum(notional) as score from trades group by trader
`;
const A = "0x1000000000000000000000000000000000000001";

function files(policy: Policy, stage: bigint, trial = false) {
  const rows = [{ address: A, score: 7n * stage }];
  const packed = packRows(rows);
  const csv = scoreCsv(packed);
  const hash = `0x${"ab".repeat(32)}`;
  const window = {
    stage: trial ? null : stage,
    start: 1000n * stage,
    end: 1000n * stage + 1000n,
  };
  const manifest = stageManifest(
    policy,
    {
      window,
      blocks: {
        first: { number: 10n * stage, hash, time: window.start },
        last: { number: 10n * stage + 9n, hash, time: window.end - 1n },
        firstNumber: 10n * stage,
        closed: true,
      },
      final: !trial,
      trial,
    },
    { rows: packed, sources: [], engine: "test" },
    csv,
  );
  return { manifest, csv };
}

const sha256 = (bytes: Buffer) =>
  createHash("sha256").update(bytes).digest("hex");

describe("the score folder is the set to publish: the policy beside its stages", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-publish-"));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it("writes the policy under the manifest's name, the bytes its sha256 names, once", async () => {
    const policy = parsePolicy("/elsewhere/policies/12-perp.sql", SQL);
    const one = files(policy, 12n);
    const written = await writeStageFiles(
      dir,
      one.manifest,
      one.csv,
      policy.sql,
    );
    expect(written.policy).to.equal(path.join(dir, "12-perp.sql"));
    const copy = await readFile(path.join(dir, one.manifest.policy.file));
    expect(sha256(copy)).to.equal(one.manifest.policy.sha256);
    expect(copy.toString("utf8")).to.equal(SQL);
    const two = files(policy, 13n);
    await writeStageFiles(dir, two.manifest, two.csv, policy.sql);
    const trial = files(policy, 14n, true);
    await writeStageFiles(dir, trial.manifest, trial.csv, policy.sql);
    expect((await readdir(dir)).sort()).to.deep.equal([
      "12-perp.sql",
      "stage-12.final.csv",
      "stage-12.manifest.json",
      "stage-13.final.csv",
      "stage-13.manifest.json",
      "window-14000-15000.csv",
      "window-14000-15000.manifest.json",
    ]);
  });

  it("never overwrites a published policy with other bytes, and writes nothing then", async () => {
    const published = parsePolicy("policies/12-perp.sql", SQL);
    const first = files(published, 12n);
    await writeStageFiles(dir, first.manifest, first.csv, published.sql);
    // The same file name, edited in place after stage 12 was published.
    const edited = parsePolicy(
      "policies/12-perp.sql",
      SQL.replace("sum(notional)", "count(*)"),
    );
    const next = files(edited, 13n);
    let error: unknown;
    await writeStageFiles(dir, next.manifest, next.csv, edited.sql).catch(
      (e: unknown) => (error = e),
    );
    expect(
      isVipError(error, ERRORS.SCORING.RESULTS.POLICY_COPY_DIFFERS),
      String(error),
    ).to.equal(true);
    expect(String(error)).to.contain(`sha256 ${published.sha256}`);
    expect(String(error)).to.contain(`stage 13 ran (sha256 ${edited.sha256})`);
    expect((await readdir(dir)).sort()).to.deep.equal([
      "12-perp.sql",
      "stage-12.final.csv",
      "stage-12.manifest.json",
    ]);
    expect(await readFile(path.join(dir, "12-perp.sql"), "utf8")).to.equal(SQL);
  });

  it("takes a policy already there with the same bytes (computed from the folder itself)", async () => {
    await writeFile(path.join(dir, "perp.sql"), SQL);
    const policy = parsePolicy(path.join(dir, "perp.sql"), SQL);
    const stage = files(policy, 3n);
    const written = await writeStageFiles(
      dir,
      stage.manifest,
      stage.csv,
      policy.sql,
    );
    expect(written.policy).to.equal(path.join(dir, "perp.sql"));
    expect(await readFile(path.join(dir, "perp.sql"), "utf8")).to.equal(SQL);
  });
});
