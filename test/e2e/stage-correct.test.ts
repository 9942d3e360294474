import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

import { expect } from "chai";
import type { JsonRpcProvider } from "ethers";

import { ERRORS } from "../../tasks/error-catalog.js";
import { defined } from "../../tasks/errors.js";
import {
  type VipScore,
  VipScore__factory,
} from "../../types/ethers-contracts/index.js";
import {
  A,
  B,
  BRIDGE,
  C,
  csv,
  D,
  useCorrectionRig,
} from "../helpers/correction-rig.js";
import { failure } from "../helpers/failure.js";
import { spawnHardhat } from "../helpers/hardhat-cli.js";

describe("stage:correct: a wrongly finalized stage corrected on a new contract, with its proposal (hardhat node)", function () {
  // The node, the stand-ins, the contract with stages 5 and 6 finalized and 7
  // open, and the corrected files: see the rig.
  const rig = useCorrectionRig();
  const { env, cli, correctArgs, correct, scoresOf, nonce } = rig;
  let provider: JsonRpcProvider;
  let old: VipScore;
  let work: string;
  let journalDir: string;
  let outDir: string;
  beforeEach(() => {
    ({ provider, old, work, journalDir, outDir } = rig);
  });

  it("--dry-run prints the plan (the changes, the replay, the deadline, the proposal) and sends nothing", async () => {
    const before = await nonce();
    const plan = await correct("--dry-run");
    expect(plan.code, plan.output).to.equal(0);
    expect(plan.stdout).to.match(
      /stage to correct\s+5 \(finalized on 0x[0-9a-fA-F]{40}; its open stage is 7\)/,
    );
    expect(plan.stdout).to.match(
      /stage 5\s+2 addresses change; total 30 → 40 \(\+10\)/,
    );
    expect(plan.stdout.toLowerCase()).to.include(`${D}: 0 → 5 (+5)`);
    expect(plan.stdout.toLowerCase()).to.include(`${B}: 20 → 25 (+5)`);
    expect(plan.stdout).to.match(
      /stage 6\s+unchanged: 2 score\(s\), total 4, replayed as it is/,
    );
    expect(plan.stdout).to.match(
      /challenge 5\s+snapshot taken .*; the window closes at .* \(in 2 d 0 h\): an expedited proposal \(1 d 0 h of voting\) submitted now ends its vote in time/,
    );
    expect(plan.stdout).to.match(
      /proposal\s+the contract update and the challenge\(s\), in one proposal/,
    );
    expect(plan.stdout).to.include("dry run: nothing was sent or written");
    expect(await nonce()).to.equal(before);
    expect(existsSync(outDir)).to.equal(false);
  });

  it("corrects: a new contract with stages 5 and 6 as their files, finalized, stage 7 open there; the old one untouched and refused; the proposal and the post", async () => {
    const oldBefore = await scoresOf(old, 5n);
    const done = await correct(
      "--yes",
      "--reason",
      "the policy missed D's trades",
    );
    expect(done.code, done.output).to.equal(0);
    const address = defined(
      /deployed\s+VipScore at (0x[0-9a-fA-F]{40})/.exec(done.stdout)?.[1],
      "the correction names the new contract",
    );
    const fresh = VipScore__factory.connect(address, provider);
    expect(await fresh.initStage()).to.equal(5n);
    expect(await fresh.openStage()).to.equal(7n);
    expect(await scoresOf(fresh, 5n)).to.deep.equal(
      new Map([
        [A, 10n],
        [B, 25n],
        [D, 5n],
      ]),
    );
    expect(await scoresOf(fresh, 6n)).to.deep.equal(
      new Map([
        [A, 1n],
        [C, 3n],
      ]),
    );
    expect((await fresh.stages(6n)).isFinalized).to.equal(true);
    // The old contract is as it was.
    expect(await old.openStage()).to.equal(7n);
    expect(await scoresOf(old, 5n)).to.deep.equal(oldBefore);

    // The tasks use the new contract by default, and refuse to write to the old one.
    const shown = await cli(["stage"]);
    expect(shown.stdout).to.match(
      new RegExp(`contract open stage\\s+7 \\(VipScore at ${address}\\)`),
    );
    await writeFile(path.join(work, "live.csv"), csv([[A, 3n]]));
    const refused = await cli([
      "scores:update",
      "--stage",
      "7",
      "--file",
      path.join(work, "live.csv"),
      "--contract",
      await old.getAddress(),
      "--journal-dir",
      journalDir,
    ]);
    expect(failure(refused, ERRORS.CONTRACT.DEPLOYMENT.SUPERSEDED)).to.include(
      address,
    );
    const live = await cli([
      "scores:update",
      "--stage",
      "7",
      "--file",
      path.join(work, "live.csv"),
      "--journal-dir",
      journalDir,
    ]);
    expect(live.code, live.output).to.equal(0);
    expect((await fresh.scores(7n, A)).amount).to.equal(3n);
    expect((await old.scores(7n, A)).amount).to.equal(2n);

    // The proposal: the contract update, then the challenge of stage 5.
    const proposal = JSON.parse(
      await readFile(path.join(outDir, "proposal.json"), "utf8"),
    ) as {
      messages: { "@type": string; function_name: string; args: string[] }[];
      expedited: boolean;
    };
    expect(proposal.expedited).to.equal(true);
    expect(
      proposal.messages.map((m) => [
        m["@type"],
        m.function_name,
        m.args.map((a) => JSON.parse(a) as string),
      ]),
    ).to.deep.equal([
      [
        "/initia.move.v1.MsgGovExecuteJSON",
        "update_l2_score_contract",
        [BRIDGE.toString(), address],
      ],
      [
        "/initia.move.v1.MsgGovExecuteJSON",
        "execute_rollup_challenge",
        [BRIDGE.toString(), "5"],
      ],
    ]);
    expect(
      existsSync(path.join(outDir, "proposal-contract-update.json")),
    ).to.equal(false);
    const post = await readFile(path.join(outDir, "forum-post.md"), "utf8");
    expect(post).to.include(address);
    expect(post).to.include("changed-addresses.csv");
    expect(
      await readFile(path.join(outDir, "changed-addresses.csv"), "utf8"),
    ).to.equal(
      "address,stage,old_score,new_score,delta\n" +
        `${B},5,20,25,5\n${D},5,0,5,5\n`,
    );

    // Run again: done, nothing sent.
    const before = await nonce();
    const again = await correct("--yes");
    expect(again.code, again.output).to.equal(0);
    expect(await nonce()).to.equal(before);
  });

  it("resumes a correction killed during the replay: the same end, nothing sent twice", async () => {
    const updateScores = old.interface.getFunction("updateScores").selector;
    const creationsBefore = await creations();
    const killed = spawnHardhat(correctArgs("--yes"), env());
    let printed = "";
    defined(killed.child.stdout, "stdout").on(
      "data",
      (chunk: Buffer) => (printed += chunk.toString()),
    );
    // Killed once stage 5's push has gone out to the new contract.
    for (
      const deadline = Date.now() + 120_000;
      !/replay\s+stage 5/.test(printed) ||
      (await updateCount(updateScores)) < 1;
    ) {
      if (Date.now() > deadline) throw new Error("the replay never started");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    killed.child.kill("SIGKILL");
    await killed.result;

    const resumed = await correct("--yes");
    expect(resumed.code, resumed.output).to.equal(0);
    expect(resumed.stdout).to.match(/journal\s+.*stage-5\.jsonl: resuming/);
    const address = defined(
      /already deployed\s+VipScore at (0x[0-9a-fA-F]{40})|deployed\s+VipScore at (0x[0-9a-fA-F]{40})/
        .exec(resumed.stdout + printed)
        ?.slice(1)
        .find((x) => x !== undefined),
      "the new contract",
    );
    const fresh = VipScore__factory.connect(address, provider);
    expect(await fresh.openStage()).to.equal(7n);
    expect(await scoresOf(fresh, 5n)).to.deep.equal(
      new Map([
        [A, 10n],
        [B, 25n],
        [D, 5n],
      ]),
    );
    // One push per replayed stage (two stages, one batch each), one
    // finalization each: nothing sent twice.
    expect(await updateCount(updateScores, address)).to.equal(2);
    const finalizeAt = old.interface.getFunction("finalizeStageAt").selector;
    expect(await updateCount(finalizeAt, address)).to.equal(2);
    // One new contract, deployed once.
    expect(await creations()).to.equal(creationsBefore + 1);
  });

  /** Contracts created on the chain (transactions without a `to`). */
  const creations = async () => {
    let count = 0;
    for (let n = 0, latest = await provider.getBlockNumber(); n <= latest; n++)
      for (const tx of defined(await provider.getBlock(n, true), "block")
        .prefetchedTransactions)
        if (tx.to === null) count++;
    return count;
  };

  /** `updateScores` transactions to `to` (any contract but the old one when undefined). */
  const updateCount = async (selector: string, to?: string) => {
    let count = 0;
    const oldAddress = (await old.getAddress()).toLowerCase();
    for (let n = 0, latest = await provider.getBlockNumber(); n <= latest; n++)
      for (const tx of defined(await provider.getBlock(n, true), "block")
        .prefetchedTransactions)
        if (
          tx.data.startsWith(selector) &&
          tx.to !== null &&
          (to === undefined
            ? tx.to.toLowerCase() !== oldAddress
            : tx.to.toLowerCase() === to.toLowerCase())
        )
          count++;
    return count;
  };
});
