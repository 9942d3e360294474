import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

import { expect } from "chai";
import { Wallet } from "ethers";

import { type ErrorDescriptor, ERRORS } from "../../tasks/error-catalog.js";
import { defined } from "../../tasks/errors.js";
import {
  A,
  B,
  BRIDGE,
  csv,
  DAY,
  NOW,
  useCorrectionRig,
} from "../helpers/correction-rig.js";
import { failure } from "../helpers/failure.js";
import {
  type CliResult,
  PROJECT_ROOT,
  runHardhat,
  spawnHardhat,
} from "../helpers/hardhat-cli.js";
import { waitFor } from "../helpers/wait.js";

const HOUR = 3_600n;
const UPDATE = "update_l2_score_contract";
const CHALLENGE = "execute_rollup_challenge";
const EXECUTE_JSON = "/initia.move.v1.MsgGovExecuteJSON";

interface Proposal {
  messages: { "@type": string; function_name: string; args: string[] }[];
  expedited: boolean;
}

/** Settles with `promise`, or fails after `ms` naming `what`. */
async function within<T>(
  promise: Promise<T>,
  ms: number,
  what: string,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe("stage:correct: refusals, challenge windows and a running autopilot (hardhat node)", function () {
  const rig = useCorrectionRig();
  const { correct, nonce } = rig;

  const stage5File = () => path.join(rig.scoresDir, "stage-5.final.csv");
  const stage6File = () => path.join(rig.scoresDir, "stage-6.final.csv");
  /** The new contract's Ignition deployment, as a correction of stage 5 names it. */
  const newDeployment = () =>
    path.join(
      PROJECT_ROOT,
      "ignition",
      "deployments",
      `chain-${rig.node.chainId}-from-stage-5-${(rig.old.target as string).slice(2, 10).toLowerCase()}`,
    );

  /**
   * The run's refusal, asserted: `error`'s code and a non-zero exit, nothing
   * sent (the deployer's nonce is `nonceBefore`), nothing written (no --out
   * folder, no new deployment, no correction journal). Its message.
   */
  const refusal = async (
    result: CliResult,
    error: ErrorDescriptor,
    nonceBefore: number,
  ): Promise<string> => {
    const message = failure(result, error);
    expect(await nonce()).to.equal(nonceBefore);
    expect(existsSync(rig.outDir), "the --out folder").to.equal(false);
    expect(existsSync(newDeployment()), "a new deployment").to.equal(false);
    expect(
      existsSync(
        path.join(rig.journalDir, `chain-${rig.node.chainId}`, "corrections"),
      ),
      "a correction journal",
    ).to.equal(false);
    return message;
  };

  /** Stage 5's snapshot for the bridge, taken at `createTime` (none: undefined). */
  const snapshotStage5 = (createTime: bigint | undefined) => {
    const { snapshots } = rig.baseChain.state;
    if (createTime === undefined) snapshots.delete(5n);
    else snapshots.set(5n, new Map([[`${BRIDGE}:1`, { createTime }]]));
  };

  /** A proposal file of the correction, its messages with their args decoded. */
  const proposal = async (name: string) => {
    const read = JSON.parse(
      await readFile(path.join(rig.outDir, name), "utf8"),
    ) as Proposal;
    return {
      expedited: read.expedited,
      messages: read.messages.map((m) => [
        m["@type"],
        m.function_name,
        m.args.map((a) => JSON.parse(a) as string),
      ]),
    };
  };

  /** The correction with --yes: succeeded, and the new contract's address. */
  const corrected = async (): Promise<{
    result: CliResult;
    address: string;
  }> => {
    const result = await correct("--yes");
    expect(result.code, result.output).to.equal(0);
    const address = defined(
      /deployed\s+VipScore at (0x[0-9a-fA-F]{40})/.exec(result.stdout)?.[1],
      "the correction names the new contract",
    );
    return { result, address };
  };

  describe("refusals: nothing sent, nothing written", function () {
    it("a stage that is not finalized (--stage 7, the open stage): CORRECTION_STAGE_OPEN, pointing at scores:update", async () => {
      const before = await nonce();
      const result = await runHardhat(
        rig.correctStageArgs(7n, "--yes"),
        rig.env(),
      );
      const message = await refusal(
        result,
        ERRORS.AUTOPILOT.CORRECTION.CORRECTION_STAGE_OPEN,
        before,
      );
      expect(message).to.include("stage 7 is not finalized");
      expect(message).to.include("open stage is 7");
      expect(message).to.include("scores:update --stage 7");
    });

    it("a corrected file equal to the chain: CORRECTION_NOTHING_TO_CORRECT", async () => {
      await writeFile(
        stage5File(),
        csv([
          [B, 20n],
          [A, 10n],
        ]),
      );
      const before = await nonce();
      const message = await refusal(
        await correct("--yes"),
        ERRORS.AUTOPILOT.CORRECTION.CORRECTION_NOTHING_TO_CORRECT,
        before,
      );
      expect(message).to.include(stage5File());
    });

    it("a signer without funds for the plan (a fresh key, no balance): CONTRACT.INSUFFICIENT_FUNDS, the key never printed", async () => {
      const poor = Wallet.createRandom();
      expect(await rig.provider.getBalance(poor.address)).to.equal(0n);
      const before = await nonce();
      const result = await runHardhat(rig.correctArgs("--yes"), {
        ...rig.env(),
        PRIVATE_KEY: poor.privateKey,
      });
      const message = await refusal(
        result,
        ERRORS.CONTRACT.ACCOUNTS.INSUFFICIENT_FUNDS,
        before,
      );
      expect(message.toLowerCase()).to.include(poor.address.toLowerCase());
      expect(message).to.include("the correction");
      expect(await rig.provider.getTransactionCount(poor.address)).to.equal(0);
      expect(result.output.toLowerCase()).to.not.include(
        poor.privateKey.slice(2).toLowerCase(),
      );
    });

    it("a rollup whose bridge id cannot be read (its REST API fails): CORRECTION_BRIDGE_UNREADABLE", async () => {
      rig.rollupRest.state.mode = "http-error";
      const before = await nonce();
      await refusal(
        await correct("--yes"),
        ERRORS.AUTOPILOT.CORRECTION.CORRECTION_BRIDGE_UNREADABLE,
        before,
      );
    });

    it("an empty corrected file for a stage that had scores: CORRECTION_EMPTY; with --allow-empty --dry-run, the plan", async () => {
      await writeFile(stage5File(), "address,score\n");
      const before = await nonce();
      const message = await refusal(
        await correct("--yes"),
        ERRORS.AUTOPILOT.CORRECTION.CORRECTION_EMPTY,
        before,
      );
      expect(message).to.include(stage5File());
      expect(message).to.include("holds 2 address(es) on chain");

      const plan = await correct("--allow-empty", "--dry-run");
      expect(plan.code, plan.output).to.equal(0);
      expect(plan.stdout).to.match(
        /stage 5\s+2 addresses change; total 30 → 0 \(-30\)/,
      );
      expect(plan.stdout.toLowerCase()).to.include(`${B}: 20 → 0 (-20)`);
      expect(plan.stdout.toLowerCase()).to.include(`${A}: 10 → 0 (-10)`);
      expect(plan.stdout).to.include("dry run: nothing was sent or written");
      expect(await nonce()).to.equal(before);
      expect(existsSync(rig.outDir)).to.equal(false);
    });

    it("a later stage's final file missing (stage-6.final.csv): CORRECTION_FILE_MISSING, naming it", async () => {
      await rm(stage6File());
      const before = await nonce();
      const message = await refusal(
        await correct("--yes"),
        ERRORS.AUTOPILOT.CORRECTION.CORRECTION_FILE_MISSING,
        before,
      );
      expect(message).to.include(`stage 6 has no corrected final file`);
      expect(message).to.include(stage6File());
    });
  });

  describe("refusals about the program's bridge: nothing sent, nothing written", function () {
    it("a bridge the program has not registered: CORRECTION_BRIDGE_NOT_REGISTERED", async () => {
      rig.baseChain.state.registeredBridges = [];
      const before = await nonce();
      const message = await refusal(
        await correct("--yes"),
        ERRORS.AUTOPILOT.CORRECTION.CORRECTION_BRIDGE_NOT_REGISTERED,
        before,
      );
      expect(message).to.include(`bridge ${BRIDGE}`);
    });

    it("a contract the program does not read the bridge's scores from: CORRECTION_NOT_THE_PROGRAMS, naming both", async () => {
      const other = "0x" + "e5".repeat(20);
      rig.baseChain.state.scoreContracts.set(BRIDGE, other);
      const before = await nonce();
      const message = await refusal(
        await correct("--yes"),
        ERRORS.AUTOPILOT.CORRECTION.CORRECTION_NOT_THE_PROGRAMS,
        before,
      );
      expect(message).to.include(other);
      expect(message).to.include(await rig.old.getAddress());
    });
  });

  describe("the challenge window of the corrected stage", function () {
    it("past its window (snapshot 4 days old, 3-day period): said plainly; the proposal holds only the contract update", async () => {
      snapshotStage5(NOW - 4n * DAY);
      const { result, address } = await corrected();
      expect(result.stdout).to.match(
        /challenge 5\s+past its window \(it closed at \S+\): only later stages can still be right/,
      );
      expect(result.stdout).to.match(
        /proposal\s+the contract update alone: no wrong stage can be challenged in time any more/,
      );
      expect(await proposal("proposal.json")).to.deep.equal({
        expedited: true,
        messages: [[EXECUTE_JSON, UPDATE, [BRIDGE.toString(), address]]],
      });
      expect(
        existsSync(path.join(rig.outDir, "proposal-contract-update.json")),
      ).to.equal(false);
    });

    it("a deadline near (the expedited vote ends 3 h before it): the full proposal and one with the update alone, and why", async () => {
      // Deadline NOW + 1 d + 3 h; the 1-day expedited vote ends at NOW + 1 d.
      snapshotStage5(NOW - 3n * DAY + DAY + 3n * HOUR);
      const { result, address } = await corrected();
      expect(result.stdout).to.match(
        /challenge 5\s+snapshot taken .*; the window closes at .* \(in 1 d 3 h\): an expedited proposal \(1 d 0 h of voting\) submitted now ends its vote in time, with little to spare/,
      );
      expect(result.stdout).to.match(
        /proposal\s+the contract update and the challenge\(s\), and a second proposal with the update alone: the messages execute all or nothing, and a challenge that arrives after its window would sink the update with it/,
      );
      expect(await proposal("proposal.json")).to.deep.equal({
        expedited: true,
        messages: [
          [EXECUTE_JSON, UPDATE, [BRIDGE.toString(), address]],
          [EXECUTE_JSON, CHALLENGE, [BRIDGE.toString(), "5"]],
        ],
      });
      expect(await proposal("proposal-contract-update.json")).to.deep.equal({
        expedited: true,
        messages: [[EXECUTE_JSON, UPDATE, [BRIDGE.toString(), address]]],
      });
    });

    it("no snapshot yet for stage 5: said as such, no proposal written; run again once the agent took it, the proposal challenges it", async () => {
      snapshotStage5(undefined);
      const { result, address } = await corrected();
      expect(result.stdout).to.match(
        /challenge 5\s+no snapshot yet: the agent has not taken the stage, so there is nothing to challenge yet/,
      );
      expect(result.stdout).to.match(
        /proposal\s+none yet: a wrong stage has no snapshot yet/,
      );
      expect(result.stdout).to.match(/next\s+.*no proposal yet/);
      expect(existsSync(path.join(rig.outDir, "proposal.json"))).to.equal(
        false,
      );
      expect(existsSync(path.join(rig.outDir, "forum-post.md"))).to.equal(true);

      // The agent takes stage 5 (from the old contract); the same command,
      // run again, sends nothing and writes the proposal with its challenge.
      snapshotStage5(NOW - DAY / 2n);
      const before = await nonce();
      const again = await correct("--yes");
      expect(again.code, again.output).to.equal(0);
      expect(await nonce()).to.equal(before);
      expect(await proposal("proposal.json")).to.deep.equal({
        expedited: true,
        messages: [
          [EXECUTE_JSON, UPDATE, [BRIDGE.toString(), address]],
          [EXECUTE_JSON, CHALLENGE, [BRIDGE.toString(), "5"]],
        ],
      });
    });
  });

  it("a running autopilot on the old contract stops once the correction made the new one current (CONTRACT.SUPERSEDED); started again, it runs on the new one", async () => {
    const oldAddress = await rig.old.getAddress();
    const autopilotScores = path.join(rig.work, "autopilot-scores");
    const autopilotJournal = path.join(rig.work, "autopilot-journal");
    await mkdir(autopilotScores);
    const autopilotArgs = (...extra: string[]) => [
      "stage:autopilot",
      "--network",
      "rollup",
      "--scores-dir",
      autopilotScores,
      "--journal-dir",
      autopilotJournal,
      "--poll-interval",
      "1",
      ...extra,
    ];
    const contractLine = (address: string) =>
      new RegExp(`contract\\s+${address} on chain ${rig.node.chainId}`, "i");
    const running = spawnHardhat(autopilotArgs(), rig.env());
    try {
      let printed = "";
      defined(running.child.stdout, "stdout").on(
        "data",
        (chunk: Buffer) => (printed += chunk.toString()),
      );
      // Running on the old contract (the default deployment) before the
      // correction starts.
      await waitFor(
        () =>
          contractLine(oldAddress).test(printed) ||
          running.child.exitCode !== null,
        60_000,
      );
      if (running.child.exitCode !== null)
        expect.fail(
          `the autopilot exited early:\n${(await running.result).output}`,
        );

      const { address } = await corrected();
      const stopped = await within(
        running.result,
        60_000,
        "the autopilot did not stop",
      );
      const message = failure(stopped, ERRORS.CONTRACT.DEPLOYMENT.SUPERSEDED);
      expect(message).to.include(`${oldAddress} was replaced by ${address}`);
      expect(message).to.include("from stage 5");

      const again = await runHardhat(autopilotArgs("--once"), rig.env());
      expect(again.stdout, again.output).to.match(contractLine(address));
      expect(again.stdout).to.not.match(contractLine(oldAddress));
    } finally {
      if (running.child.exitCode === null) running.child.kill("SIGKILL");
    }
  });
});
