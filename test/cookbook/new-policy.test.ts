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

import { ERRORS } from "../../tasks/error-catalog.js";
import { loadPolicies } from "../../tasks/policy/load.js";
import { parsePolicy } from "../../tasks/policy/parse.js";
import { failure, refusal } from "../helpers/failure.js";
import { PROJECT_ROOT, runHardhat } from "../helpers/hardhat-cli.js";

const EXAMPLES = path.join(PROJECT_ROOT, "policies", "examples");
const FAMILIES = [
  "budget-share-by-points",
  "nft-mint-trade-booster",
  "per-second-market-budget",
  "points-while-holding",
  "rank-pots",
  "time-weighted-lending",
  "volume-leverage-tiers",
];

/** A policy's lines other than its @policy and @from-stage lines. */
const body = (text: string) =>
  text
    .split("\n")
    .filter((line) => !/^--\s*@(policy|from-stage)\s/.test(line))
    .join("\n");

// The copies this task writes are the ones the cookbook suite
// (policies.test.ts) runs with scores:compute on hardhat node.
describe("scores:new-policy: an operator's policy started from the cookbook", function () {
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), "vip-new-policy-"));
  });
  after(async () => rm(work, { recursive: true, force: true }));

  const newPolicy = (args: string[]) =>
    runHardhat(["scores:new-policy", ...args]);

  describe("the examples", () => {
    it("hold one policy per family, each with its words, its formula and its floor, from stage 1", async () => {
      const files = (await readdir(EXAMPLES)).sort();
      expect(files).to.deep.equal(FAMILIES.map((f) => `${f}.sql`));
      for (const family of FAMILIES) {
        const file = path.join(EXAMPLES, `${family}.sql`);
        const text = await readFile(file, "utf8");
        const policy = parsePolicy(file, text);
        expect(policy.name).to.equal(family);
        expect(policy.fromStage).to.equal(1n);
        expect(text, family).to.match(/^-- Family: /m);
        expect(text, family).to.match(/^-- In words: /m);
        expect(text, family).to.match(/^--\s+score\(u\) = /m);
        expect(text, family).to.match(/floor/);
      }
    });

    it("is no folder of live policies: all starting at stage 1, it is refused as a whole (one file at a time)", async () => {
      const refused = await refusal(
        loadPolicies(EXAMPLES),
        ERRORS.SCORING.POLICY_FILES.POLICIES_SAME_STAGE,
      );
      expect(refused.params.stage).to.equal(1n);
    });

    it("each has its section in docs/policies.md, naming its file and its events", async () => {
      const docs = await readFile(
        path.join(PROJECT_ROOT, "docs", "policies.md"),
        "utf8",
      );
      for (const family of FAMILIES) {
        const file = path.join(EXAMPLES, `${family}.sql`);
        const policy = parsePolicy(file, await readFile(file, "utf8"));
        expect(docs, family).to.include(`policies/examples/${family}.sql`);
        expect(docs, family).to.include(`--template ${family}`);
        for (const source of policy.sources)
          expect(docs, `${family}: ${source.table}`).to.include(
            source.event.format("full").replace(/^event /, ""),
          );
      }
    });
  });

  it("copies a family's example with the name of its file and stage 1, the rest unchanged", async () => {
    const out = path.join(work, "policies", "casino-ranks.sql");
    const result = await newPolicy(["--template", "rank-pots", "--out", out]);
    expect(result.code, result.output).to.equal(0);
    const text = await readFile(out, "utf8");
    const policy = parsePolicy(out, text);
    expect(policy.name).to.equal("casino-ranks");
    expect(policy.fromStage).to.equal(1n);
    const example = await readFile(
      path.join(EXAMPLES, "rank-pots.sql"),
      "utf8",
    );
    expect(body(text)).to.equal(body(example));
    expect(result.stdout).to.include(out);
    // What the task tells the operator to run next, with no network.
    const checked = await runHardhat(["scores:check", "--policy", out]);
    expect(checked.code, checked.output).to.equal(0);
    expect(checked.stdout).to.match(/^policy\s+casino-ranks /m);
    expect(result.stdout).to.match(
      /^source bets\s+0x0{38}e1 \(a placeholder\) BetPlaced\(address indexed player, uint256 indexed gameId, uint256 amount\)$/m,
    );
  });

  it("takes --name and --from-stage", async () => {
    const out = path.join(work, "12-perp.sql");
    const result = await newPolicy([
      "--template",
      "volume-leverage-tiers",
      "--out",
      out,
      "--name",
      "perp.v2",
      "--from-stage",
      "12",
    ]);
    expect(result.code, result.output).to.equal(0);
    const policy = parsePolicy(out, await readFile(out, "utf8"));
    expect(policy.name).to.equal("perp.v2");
    expect(policy.fromStage).to.equal(12n);
  });

  it("refuses to overwrite a file, which stays as it was", async () => {
    const out = path.join(work, "in-force.sql");
    await writeFile(out, "-- mine\n");
    const result = await newPolicy(["--template", "rank-pots", "--out", out]);
    expect(
      failure(result, ERRORS.SCORING.NEW_POLICY.NEW_POLICY_EXISTS),
    ).to.include(out);
    expect(await readFile(out, "utf8")).to.equal("-- mine\n");
    const folder = path.join(work, "a-folder.sql");
    await mkdir(folder);
    failure(
      await newPolicy(["--template", "rank-pots", "--out", folder]),
      ERRORS.SCORING.NEW_POLICY.NEW_POLICY_EXISTS,
    );
  });

  it("refuses an unknown family, listing the families, and writes nothing", async () => {
    const out = path.join(work, "nothing", "x.sql");
    const message = failure(
      await newPolicy(["--template", "staking", "--out", out]),
      ERRORS.SCORING.NEW_POLICY.NEW_POLICY_UNKNOWN_FAMILY,
    );
    expect(message).to.include(FAMILIES.join(", "));
    expect(existsSync(path.dirname(out))).to.equal(false);
  });

  it("refuses a name or a first stage a policy cannot have, and writes nothing", async () => {
    const cases: [
      string[],
      (
        | typeof ERRORS.SCORING.NEW_POLICY.NEW_POLICY_NAME
        | typeof ERRORS.SCORING.NEW_POLICY.NEW_POLICY_FROM_STAGE
      ),
    ][] = [
      [
        ["--out", path.join(work, "no", "my policy.sql")],
        ERRORS.SCORING.NEW_POLICY.NEW_POLICY_NAME,
      ],
      [
        ["--out", path.join(work, "no", "p.sql"), "--name", "-p"],
        ERRORS.SCORING.NEW_POLICY.NEW_POLICY_NAME,
      ],
      [
        ["--out", path.join(work, "no", "p.sql"), "--from-stage", "0"],
        ERRORS.SCORING.NEW_POLICY.NEW_POLICY_FROM_STAGE,
      ],
      [
        ["--out", path.join(work, "no", "p.sql"), "--from-stage", "twelve"],
        ERRORS.SCORING.NEW_POLICY.NEW_POLICY_FROM_STAGE,
      ],
      [
        [
          "--out",
          path.join(work, "no", "p.sql"),
          "--from-stage",
          String(2n ** 64n),
        ],
        ERRORS.SCORING.NEW_POLICY.NEW_POLICY_FROM_STAGE,
      ],
    ];
    for (const [args, code] of cases)
      failure(await newPolicy(["--template", "rank-pots", ...args]), code);
    expect(existsSync(path.join(work, "no"))).to.equal(false);
  });

  it("names every family in its --help", async () => {
    const help = await newPolicy(["--help"]);
    expect(help.code, help.output).to.equal(0);
    for (const family of FAMILIES) expect(help.stdout).to.include(family);
  });

  it("is refused without --template or --out", async () => {
    for (const args of [
      ["--out", path.join(work, "none.sql")],
      ["--template", "rank-pots"],
    ])
      failure(await newPolicy(args), ERRORS.CONFIG.OPTIONS.OPTION_REQUIRED);
    expect(existsSync(path.join(work, "none.sql"))).to.equal(false);
  });
});
