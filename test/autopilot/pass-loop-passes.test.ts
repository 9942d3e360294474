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
import { recordSuccession } from "../../tasks/contract/succession.js";
import { ERRORS } from "../../tasks/error-catalog.js";
import { defined, isVipError } from "../../tasks/errors.js";
import { ReportKeeper } from "../../tasks/report/keeper.js";
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
const NEXT = "0x" + "b2".repeat(20);

describe("the autopilot's passes until stopped (runAutopilot): failures, the status file, the report, a correction", () => {
  let baseChain: L1RestStandIn;
  let score: VipScore;
  let dir: string;
  let lines: string[];
  let warnings: string[];
  let alerts: string[];
  /** Every run started, stopped after its test even when an assertion failed. */
  let runs: { stop: AbortController; report: Promise<unknown> }[];

  beforeEach(async () => {
    baseChain = await startL1RestStandIn({
      stage: 5n,
      stageStartTime: START,
      stageEndTime: START + INTERVAL,
      stageInterval: INTERVAL,
      now: START + 100n,
    });
    score = await deployVipScore(ethers, 5n);
    dir = await mkdtemp(path.join(tmpdir(), "vip-pass-loop-"));
    lines = [];
    warnings = [];
    alerts = [];
    runs = [];
  });
  afterEach(async () => {
    for (const run of runs) run.stop.abort();
    await Promise.allSettled(runs.map((run) => run.report));
    await baseChain.close();
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * Starts the autopilot: polling every 20 ms, so that a failed pass (whose
   * back-off is at most the poll interval) is followed by the next at once.
   */
  const start = async (extra: Partial<AutopilotOptions> = {}) => {
    const [signer] = await ethers.getSigners();
    const stop = new AbortController();
    const options: AutopilotOptions = {
      scoresDir: dir,
      once: false,
      pollSeconds: 0.02,
      graceSeconds: 3_600n,
      // Where the task puts it by default: not among the score files (a
      // status file there would count as a changed score file at each pass).
      statusFile: path.join(dir, "journal", "autopilot", "status.json"),
      journalDir: path.join(dir, "journal"),
      l1RestUrl: baseChain.url,
      moduleAddress: baseChain.state.moduleAddress,
      network: "default",
      role: { kind: "primary" },
      signal: stop.signal,
      ...extra,
    };
    const ctx = await prepareContext({
      score,
      signer: defined(signer, "the network's first account"),
      chainId: (await ethers.provider.getNetwork()).chainId,
      out: {
        line: (text) => lines.push(text),
        warn: (text) => warnings.push(text),
      },
      alerts: alertSink({ write: (line) => alerts.push(line) }),
    });
    const report = runAutopilot(ctx, options);
    runs.push({ stop, report });
    return { ctx, options, report, stop };
  };
  const status = async (file: string) =>
    JSON.parse(await readFile(file, "utf8")) as AutopilotStatus;
  /** The status file once it is written and `holds`. */
  const statusWhen = async (
    file: string,
    holds: (status: AutopilotStatus) => boolean,
  ) => {
    await waitFor(
      async () => existsSync(file) && holds(await status(file)),
      60_000,
    );
    return status(file);
  };

  it("goes on after failed passes, each in the status file with its error, alerting once; recovers; stops when aborted", async () => {
    // The program's resource lacks a field: each pass fails at once (no retry).
    baseChain.state.mode = "missing-field";
    const { options, report, stop } = await start();
    const failing = await statusWhen(options.statusFile, (s) => s.passes >= 3);
    expect(failing.lastError?.code).to.equal(
      `VIP-E${ERRORS.AUTOPILOT.PASSES.CLOCKS_UNREACHABLE.number}`,
    );
    expect(failing.openStage, "no pass got as far as the stage").to.equal(
      undefined,
    );
    expect(failing.nextPollAt, "another pass is planned").to.not.equal(
      undefined,
    );
    expect(alerts.length, "an alert for the failure").to.be.greaterThan(0);
    expect(
      alerts.length,
      "not one alert per failed pass while it stands",
    ).to.be.lessThan(failing.passes);
    // The base chain answers again: the next pass reads the stage.
    baseChain.state.mode = "ok";
    const recovered = await statusWhen(
      options.statusFile,
      (s) => s.openStage === "5",
    );
    expect(recovered.passes).to.be.greaterThan(failing.passes);
    expect(recovered.due?.stage).to.equal("5");
    stop.abort();
    expect(await report).to.deep.equal({ finalized: [] });
  });

  it("with once, returns after one failed pass with its failure as what blocked it, the status written with no next poll", async () => {
    baseChain.state.mode = "missing-field";
    const { options, report } = await start({ once: true });
    const result = await report;
    expect(result.finalized).to.deep.equal([]);
    const blocked = defined(result.blocked, "the failure blocked the pass");
    expect(
      isVipError(blocked.error, ERRORS.AUTOPILOT.PASSES.CLOCKS_UNREACHABLE),
    ).to.equal(true);
    const written = await status(options.statusFile);
    expect(written.passes).to.equal(1);
    expect(written.nextPollAt).to.equal(undefined);
    expect(written.lastError?.text).to.equal(blocked.text);
  });

  it("with once and nothing due, does one pass and returns nothing blocked", async () => {
    const { options, report } = await start({ once: true });
    expect(await report).to.deep.equal({ finalized: [] });
    const written = await status(options.statusFile);
    expect(written).to.deep.include({ passes: 1, openStage: "5" });
    expect(written.due?.due).to.equal(false);
    expect(written.nextPollAt).to.equal(undefined);
  });

  it("takes a status file it cannot write as a warning at each pass, and goes on", async () => {
    baseChain.state.mode = "missing-field";
    const blocker = path.join(dir, "a-file");
    await writeFile(blocker, "not a folder\n");
    const { report, stop } = await start({
      statusFile: path.join(blocker, "status.json"),
    });
    await waitFor(
      () =>
        warnings.filter((w) => /status file .* could not be written/.test(w))
          .length >= 3,
      60_000,
    );
    stop.abort();
    expect(await report).to.deep.equal({ finalized: [] });
  });

  it("rebuilds the report after a pass that changed a score file or finalized a stage, not after one that changed nothing; a failed build is a warning", async () => {
    const out = path.join(dir, "report");
    const keeper = new ReportKeeper({ scoresDir: dir, out });
    const rebuilt = () => lines.filter((l) => /^report\b/.test(l)).length;
    // No score file yet: the report cannot be built, the pass is done anyway.
    const empty = await start({ once: true, report: keeper });
    expect(await empty.report).to.deep.equal({ finalized: [] });
    expect(warnings.some((w) => /was not rebuilt/.test(w))).to.equal(true);
    expect(rebuilt()).to.equal(0);
    expect(existsSync(empty.options.statusFile)).to.equal(true);
    // A live score file: built.
    await writeFile(path.join(dir, "stage-5.csv"), `address,score\n${A},1\n`);
    await start({ once: true, report: keeper }).then((r) => r.report);
    expect(rebuilt(), "a score file appeared: built").to.equal(1);
    expect(existsSync(path.join(out, "index.html"))).to.equal(true);
    await start({ once: true, report: keeper }).then((r) => r.report);
    expect(rebuilt(), "nothing changed: left alone").to.equal(1);
    // A final file, and the stage's end passed: the pass finalizes stage 5.
    await writeFile(
      path.join(dir, "stage-5.final.csv"),
      `address,score\n${A},3\n`,
    );
    baseChain.state.now = START + INTERVAL + 10n;
    const finalizing = await start({ once: true, report: keeper });
    expect(await finalizing.report).to.deep.equal({ finalized: [5n] });
    expect(rebuilt(), "finalized: built again").to.equal(2);
  });

  it("stops before a pass, alerting, once a correction replaced the contract", async () => {
    baseChain.state.mode = "missing-field";
    const ignitionPath = path.join(dir, "ignition");
    const { ctx, options, report, stop } = await start({ ignitionPath });
    await statusWhen(options.statusFile, (s) => s.passes >= 2);
    await recordSuccession(ignitionPath, ctx.chainId, {
      previous: await score.getAddress(),
      next: NEXT,
      deploymentId: "chain-corrected",
      fromStage: 6n,
    });
    const result = await report;
    expect(result.finalized).to.deep.equal([]);
    expect(result.superseded).to.deep.include({
      contract: await score.getAddress(),
      by: NEXT,
      fromStage: 6n,
    });
    expect(alerts.some((a) => a.includes(NEXT))).to.equal(true);
    expect(stop.signal.aborted, "it stopped by itself").to.equal(false);
  });

  it("with a correction recorded before the start, does no pass at all", async () => {
    const ignitionPath = path.join(dir, "ignition");
    await recordSuccession(
      ignitionPath,
      (await ethers.provider.getNetwork()).chainId,
      {
        previous: await score.getAddress(),
        next: NEXT,
        deploymentId: "chain-corrected",
        fromStage: 6n,
      },
    );
    const { options, report } = await start({ ignitionPath });
    expect((await report).superseded?.by).to.equal(NEXT);
    expect(existsSync(options.statusFile)).to.equal(false);
  });
});
