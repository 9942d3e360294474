import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import type { JsonRpcProvider } from "ethers";

import { ERRORS } from "../../tasks/error-catalog.js";
import { defined } from "../../tasks/errors.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
import { failure } from "../helpers/failure.js";
import { PROJECT_ROOT, runHardhat } from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER, DEPLOYER_KEY } from "../helpers/keys.js";
import { deployVipScore, directProvider } from "../helpers/rig.js";

const SAMPLE = path.join(PROJECT_ROOT, "scripts", "sample-scores.csv");

describe("what a stage holds: one input per stage, skipping what is on chain, verifying", () => {
  let node: HardhatNode;
  let provider: JsonRpcProvider;
  let scratch: string;
  let score: VipScore;
  let address: string;
  let changed: string;

  const run = (args: string[]) =>
    runHardhat(
      [
        ...args,
        "--network",
        "rollup",
        "--contract",
        address,
        ...(args[0] === "scores:update" ? ["--journal-dir", scratch] : []),
      ],
      {
        JSON_RPC_URL: node.url,
        PRIVATE_KEY: DEPLOYER_KEY,
      },
    );

  before(async () => {
    node = await startHardhatNode();
    provider = directProvider(node);
    scratch = await mkdtemp(path.join(tmpdir(), "vip-stage-input-"));
    score = await deployVipScore(provider, 4n);
    address = await score.getAddress();
    // The sample with its first ten scores raised by one.
    const lines = (await readFile(SAMPLE, "utf8")).trimEnd().split("\n");
    for (let i = 1; i <= 10; i++) {
      const [addr, value] = defined(lines[i], "lines[i]").split(",");
      lines[i] = `${addr},${BigInt(defined(value, "value")) + 1n}`;
    }
    changed = path.join(scratch, "changed.csv");
    await writeFile(changed, lines.join("\n") + "\n");
    const first = await run([
      "scores:update",
      "--stage",
      "4",
      "--file",
      SAMPLE,
    ]);
    expect(first.code, first.output).to.equal(0);
  });

  after(async () => {
    await node.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it("a finished stage run again with the same file sends nothing", async () => {
    const nonce = await provider.getTransactionCount(DEPLOYER);
    const again = await run([
      "scores:update",
      "--stage",
      "4",
      "--file",
      SAMPLE,
    ]);
    expect(again.code, again.output).to.equal(0);
    expect(again.stdout).to.match(
      /^sent\s+1,000 addresses in \d+ batch(?:es)? \(0 sent by this run, 0 found after a restart\)/m,
    );
    expect(await provider.getTransactionCount(DEPLOYER)).to.equal(nonce);
  });

  it("refuses another file for the same stage unless told to replace it; then sends only what changed", async () => {
    const nonce = await provider.getTransactionCount(DEPLOYER);
    const refused = await run([
      "scores:update",
      "--stage",
      "4",
      "--file",
      changed,
      "--skip-unchanged",
    ]);
    expect(refused.code).to.not.equal(0);
    const other = failure(
      refused,
      ERRORS.SCORES.RESUME.STARTED_FROM_OTHER_FILE,
    );
    expect(other).to.include(address);
    expect(other).to.include(SAMPLE);
    expect(other).to.match(/\b[0-9a-f]{16}…/);
    expect(other).to.include("1,000");
    expect(other).to.include(scratch);
    expect(other).to.include("stage-4.jsonl");
    expect(other).to.include("--replace");
    expect(await provider.getTransactionCount(DEPLOYER)).to.equal(nonce);

    const replaced = await run([
      "scores:update",
      "--stage",
      "4",
      "--file",
      changed,
      "--skip-unchanged",
      "--replace",
    ]);
    expect(replaced.code, replaced.output).to.equal(0);
    expect(replaced.stdout).to.match(
      /^replaced\s+the earlier journal is kept as .*stage-4\.\d{4}-.*\.jsonl$/m,
    );
    expect(replaced.stdout).to.match(
      /^unchanged\s+990 of 1,000 scores already on chain: skipped$/m,
    );
    expect(replaced.stdout).to.match(
      /^verified\s+1,000 scores on chain equal .*changed\.csv$/m,
    );
    expect(await provider.getTransactionCount(DEPLOYER)).to.equal(nonce + 1);
  });

  it("scores:verify lists every score the chain holds differently, and fails", async () => {
    const ok = await run(["scores:verify", "--stage", "4", "--file", changed]);
    expect(ok.code, ok.output).to.equal(0);
    expect(ok.stdout).to.match(/^verified\s+1,000 scores on chain equal /m);

    const [line2] = (await readFile(changed, "utf8")).split("\n").slice(1, 2);
    const [victim] = defined(line2, "line2").split(",");
    const stranger = "0x00000000000000000000000000000000000000aa";
    await (
      await score.updateScores(
        4n,
        [defined(victim, "victim"), stranger],
        [7n, 3n],
      )
    ).wait();

    const bad = await run(["scores:verify", "--stage", "4", "--file", changed]);
    expect(bad.code).to.not.equal(0);
    expect(failure(bad, ERRORS.SCORES.PUSH.CHAIN_DIFFERS)).to.include(changed);
    // Each difference with its line (if the file has it), its address, and
    // both scores.
    expect(bad.output).to.match(
      new RegExp(`changed\\.csv:2: ${victim}\\b.*\\b\\d+\\b.*\\b7$`, "m"),
    );
    expect(bad.output).to.match(
      new RegExp(`${stranger}\\b.*changed\\.csv.*\\b0\\b.*\\b3$`, "m"),
    );
  });
});
