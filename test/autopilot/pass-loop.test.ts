import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { network } from "hardhat";

import { deployVipScore } from "../../scripts/gas/scenarios.js";
import { alertSink } from "../../tasks/autopilot/alerts.js";
import type { AutopilotOptions } from "../../tasks/autopilot/context.js";
import { runAutopilot } from "../../tasks/autopilot/pass-loop.js";
import { prepareContext } from "../../tasks/autopilot/prepare.js";
import type { AutopilotStatus } from "../../tasks/autopilot/status.js";
import { defined } from "../../tasks/errors.js";
import { finalizeJournalPath } from "../../tasks/journal/journal.js";
import {
  type L1RestStandIn,
  startL1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
import {
  journalLines,
  withAutomineOff,
  writeJournal,
} from "../helpers/journalled-send.js";
import { waitFor } from "../helpers/wait.js";

const { ethers } = await network.create();

const START = 1_900_000_000n;
const INTERVAL = 1_000n;
const A = "0x" + "a1".repeat(20);

describe("the autopilot in-process (runAutopilot): stopped by its AbortSignal", () => {
  let baseChain: L1RestStandIn;
  let score: VipScore;
  let dir: string;
  let lines: string[];

  beforeEach(async () => {
    baseChain = await startL1RestStandIn({
      stage: 5n,
      stageStartTime: START,
      stageEndTime: START + INTERVAL,
      stageInterval: INTERVAL,
      now: START + 100n,
    });
    score = await deployVipScore(ethers, 5n);
    dir = await mkdtemp(path.join(tmpdir(), "vip-autopilot-run-"));
    lines = [];
  });
  afterEach(async () => {
    await baseChain.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs the autopilot until `signal` aborts, polling every 10 minutes. */
  const run = async (signal: AbortSignal) => {
    const [signer] = await ethers.getSigners();
    const out = {
      line: (text: string) => lines.push(text),
      warn: (text: string) => lines.push(text),
    };
    const options: AutopilotOptions = {
      scoresDir: dir,
      once: false,
      pollSeconds: 600,
      graceSeconds: 3_600n,
      statusFile: path.join(dir, "status.json"),
      journalDir: path.join(dir, "journal"),
      l1RestUrl: baseChain.url,
      moduleAddress: baseChain.state.moduleAddress,
      network: "default",
      role: { kind: "primary" },
      signal,
    };
    const ctx = await prepareContext({
      score,
      signer: defined(signer, "the network's first account"),
      chainId: (await ethers.provider.getNetwork()).chainId,
      out,
      alerts: alertSink({ write: (line) => lines.push(line) }),
    });
    return { ctx, report: runAutopilot(ctx, options), options };
  };
  const status = async (file: string) =>
    JSON.parse(await readFile(file, "utf8")) as AutopilotStatus;

  it("returns after the pass under way once aborted, without waiting out the poll", async () => {
    const stop = new AbortController();
    const { ctx, report, options } = await run(stop.signal);
    expect(ctx.fenced).to.equal(true);
    // Aborted however the wait ends: a failed wait must not leave it running.
    await waitFor(() => existsSync(options.statusFile), 60_000).finally(() =>
      stop.abort(),
    );
    expect(await report).to.deep.equal({ finalized: [] });
    const written = await status(options.statusFile);
    expect(written).to.deep.include({
      role: "primary",
      passes: 1,
      openStage: "5",
    });
    expect(written.nextPollAt).to.not.equal(undefined);
  });

  it("finalizes a due stage from its final file, fenced, then stops when aborted", async () => {
    await writeFile(
      path.join(dir, "stage-5.final.csv"),
      `address,score\n${A},3\n`,
    );
    baseChain.state.now = START + INTERVAL + 10n;
    const stop = new AbortController();
    const { report, options } = await run(stop.signal);
    await waitFor(async () => (await score.openStage()) === 6n, 60_000)
      .then(() => waitFor(() => existsSync(options.statusFile), 60_000))
      .finally(() => stop.abort());
    expect(await report).to.deep.equal({ finalized: [5n] });
    expect((await score.scores(5n, A)).amount).to.equal(3n);
    expect(
      lines.some((l) =>
        /finalizing\s+stage 5, fenced at write count 1/.test(l),
      ),
    ).to.equal(true);
  });

  it("sends a finalization again, once, when the one a killed run sent with an older proof's count failed on chain: a line, no alert", async () => {
    await writeFile(
      path.join(dir, "stage-5.final.csv"),
      `address,score\n${A},3\n`,
    );
    baseChain.state.now = START + INTERVAL + 10n;
    // A run killed after it sent finalizeStageAt(5, 7), a count the stage
    // never had: mined, refused by the fence (StageChanged), never seen.
    const [first] = await ethers.getSigners();
    const sender = defined(first, "the network's first account");
    const from = sender.address;
    const data = score.interface.encodeFunctionData("finalizeStageAt", [
      5n,
      7n,
    ]);
    const block = await ethers.provider.getBlockNumber();
    const nonce = await ethers.provider.getTransactionCount(from);
    // Mined in a block of its own: a revert is then a receipt, not a throw.
    const stale = await withAutomineOff(ethers.provider, async () => {
      const sent = await sender.sendTransaction({
        to: await score.getAddress(),
        data,
        gasLimit: 200_000,
      });
      await ethers.provider.send("evm_mine", []);
      return sent;
    });
    const failed = await ethers.provider.getTransactionReceipt(stale.hash);
    expect(failed?.status).to.equal(0);
    const journal = finalizeJournalPath(
      path.join(dir, "journal"),
      (await ethers.provider.getNetwork()).chainId,
      await score.getAddress(),
      5n,
    );
    await writeJournal(journal, [
      { type: "sending", from, nonce, block, at: "2026-11-27T00:00:00Z", data },
      { type: "sent", nonce, hash: stale.hash },
    ]);

    const stop = new AbortController();
    const { report } = await run(stop.signal);
    await waitFor(async () => (await score.openStage()) === 6n, 60_000).finally(
      () => stop.abort(),
    );
    expect(await report).to.deep.equal({ finalized: [5n] });
    expect((await score.scores(5n, A)).amount).to.equal(3n);
    expect(
      lines.filter((l) =>
        /a finalization of stage 5 sent before \(with an older proof's count\) failed on chain: sent again at write count 1/.test(
          l,
        ),
      ),
    ).to.have.length(1);
    expect(lines.filter((l) => /^autopilot alert/.test(l))).to.deep.equal([]);
    // The failed one followed to its receipt, then one sent anew.
    const records = await journalLines(journal);
    expect(
      records
        .filter((r) => r.type === "confirmed")
        .map((r) => [r.hash, r.status]),
    ).to.deep.equal([
      [stale.hash, 0],
      [records.findLast((r) => r.type === "sent")?.hash, 1],
    ]);
  });

  it("does not start a pass when aborted before it", async () => {
    const stop = new AbortController();
    stop.abort();
    const { report, options } = await run(stop.signal);
    expect(await report).to.deep.equal({ finalized: [] });
    expect(existsSync(options.statusFile)).to.equal(false);
  });
});
