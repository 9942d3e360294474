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
import {
  type L1RestStandIn,
  startL1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
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
    await waitFor(() => existsSync(options.statusFile), 60_000);
    stop.abort();
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
    await waitFor(async () => (await score.openStage()) === 6n, 60_000);
    await waitFor(async () => existsSync(options.statusFile), 60_000);
    stop.abort();
    expect(await report).to.deep.equal({ finalized: [5n] });
    expect((await score.scores(5n, A)).amount).to.equal(3n);
    expect(
      lines.some((l) =>
        /finalizing\s+stage 5, fenced at write count 1/.test(l),
      ),
    ).to.equal(true);
  });

  it("does not start a pass when aborted before it", async () => {
    const stop = new AbortController();
    stop.abort();
    const { report, options } = await run(stop.signal);
    expect(await report).to.deep.equal({ finalized: [] });
    expect(existsSync(options.statusFile)).to.equal(false);
  });
});
