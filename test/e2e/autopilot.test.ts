import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import type { JsonRpcProvider } from "ethers";
import parsePrometheusTextFormat from "parse-prometheus-text-format";

import { ERRORS } from "../../tasks/error-catalog.js";
import { defined, errorCode } from "../../tasks/errors.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import type { StandInServer } from "../../tasks/stand-ins/server.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
import { failure } from "../helpers/failure.js";
import {
  type CliResult,
  PROJECT_ROOT,
  runHardhat,
  spawnHardhat,
} from "../helpers/hardhat-cli.js";
import { freePort } from "../helpers/hardhat-node.js";
import { DEPLOYER_KEY } from "../helpers/keys.js";
import {
  deployVipScore,
  type FaultyRig,
  startFaultyRig,
} from "../helpers/rig.js";
import { waitFor } from "../helpers/wait.js";
import { type Alert, startWebhook } from "../helpers/webhook.js";

const SAMPLE = path.join(PROJECT_ROOT, "scripts", "sample-scores.csv");
const INTERVAL = 1_000n;
const A = "0x1000000000000000000000000000000000000001";
const B = "0x2000000000000000000000000000000000000002";
const C = "0x3000000000000000000000000000000000000003";

function csv(rows: [string, bigint][]): string {
  return (
    [
      "address,score",
      ...rows.map(([address, score]) => `${address},${score}`),
    ].join("\n") + "\n"
  );
}

describe("stage:autopilot against a hardhat node and a base chain that keeps its own clock", function () {
  let rig: FaultyRig;
  let provider: JsonRpcProvider;
  let baseChain: L1RestStandIn;
  let webhook: StandInServer & { alerts: Alert[] };
  let scoresDir: string;
  let score: VipScore;
  let contract: string;
  let start: bigint;

  before(async () => {
    rig = await startFaultyRig();
    provider = rig.provider;
    webhook = await startWebhook();
  });
  after(async () => Promise.all([rig.close(), webhook.close()]));

  // Each test: a fresh contract at stage 5, the program at stage 5 with 400 s
  // left, an empty scores folder.
  beforeEach(async () => {
    start = 1_800_000_000n;
    baseChain = await startL1RestStandIn({
      stage: 5n,
      stageStartTime: start,
      stageEndTime: start + INTERVAL,
      stageInterval: INTERVAL,
      now: start + 600n,
    });
    score = await deployVipScore(provider, 5n);
    contract = await score.getAddress();
    scoresDir = await mkdtemp(path.join(tmpdir(), "vip-scores-"));
    webhook.alerts.length = 0;
    rig.proxy.rules.length = 0;
  });
  afterEach(async () => {
    await baseChain.close();
    await rm(scoresDir, { recursive: true, force: true });
  });

  const env = () => ({
    JSON_RPC_URL: rig.proxy.url,
    PRIVATE_KEY: DEPLOYER_KEY,
    L1_REST_URL: baseChain.url,
  });
  const args = (...extra: string[]) => [
    "stage:autopilot",
    "--network",
    "rollup",
    "--contract",
    contract,
    "--scores-dir",
    scoresDir,
    "--journal-dir",
    rig.journalDir,
    "--webhook",
    webhook.url,
    ...extra,
  ];
  const once = (...extra: string[]): Promise<CliResult> =>
    runHardhat(args("--once", ...extra), env());
  const write = (name: string, rows: [string, bigint][]) =>
    writeFile(path.join(scoresDir, name), csv(rows));
  const statusFile = () =>
    path.join(rig.journalDir, "autopilot", "status.json");
  const passEnd = (seconds = 10n) =>
    (baseChain.state.now = baseChain.state.stageEndTime + seconds);
  /**
   * Runs an autopilot until `body` is done, then stops it as a service manager
   * does (SIGTERM); its result.
   */
  const whileRunning = async (
    extra: string[],
    body: () => Promise<void>,
  ): Promise<CliResult> => {
    const { child, result } = spawnHardhat(args(...extra), env());
    try {
      await body();
    } finally {
      child.kill("SIGTERM");
    }
    return result;
  };
  /** The contract's calls of any of `names` in the chain's blocks, in order. */
  const calls = async (...names: string[]) => {
    const found = [];
    for (
      let n = 0, latest = await provider.getBlockNumber();
      n <= latest;
      n++
    ) {
      for (const tx of defined(
        await provider.getBlock(n, true),
        "(await provider.getBlock(n, true))",
      ).prefetchedTransactions) {
        if (tx.to?.toLowerCase() !== contract.toLowerCase()) continue;
        const parsed = score.interface.parseTransaction(tx);
        if (parsed !== null && names.includes(parsed.name)) found.push(parsed);
      }
    }
    return found;
  };
  /** Finalizations sent to the contract (fenced or not), by stage. */
  const finalizations = async () =>
    (await calls("finalizeStage", "finalizeStageAt")).map(
      (call) => call.args[0] as bigint,
    );
  const updateTransactions = async () => (await calls("updateScores")).length;

  it("pushes the live file during the stage, only what changed, and finalizes nothing before the end", async () => {
    await write("stage-5.csv", [
      [A, 10n],
      [B, 20n],
    ]);
    await write("stage-5.final.csv", [
      [A, 10n],
      [B, 20n],
    ]); // present early: still never finalized before the end
    const first = await once();
    expect(first.code, first.output).to.equal(0);
    expect(first.stdout).to.match(
      /open stage 5 ends\s+2027-01-15T08:16:40Z \(in 6 min 40 s\)/,
    );
    expect(first.stdout).to.include("pushing the live scores of");
    expect(first.stdout).to.match(/done\s+nothing was due/);
    expect((await score.scores(5n, A)).amount).to.equal(10n);
    expect((await score.stages(5n)).isFinalized).to.equal(false);

    await write("stage-5.csv", [
      [A, 10n],
      [B, 25n],
      [C, 5n],
    ]);
    const second = await once();
    expect(second.code, second.output).to.equal(0);
    expect(second.stdout).to.match(
      /unchanged\s+1 of 3 scores already on chain: skipped/,
    );
    expect((await score.scores(5n, B)).amount).to.equal(25n);
    expect(await finalizations()).to.deep.equal([]);

    const status = JSON.parse(await readFile(statusFile(), "utf8")) as Record<
      string,
      unknown
    >;
    expect(status).to.deep.include({ contract, openStage: "5" });
    expect(status.program).to.deep.equal({
      stage: "5",
      stageStartTime: "2027-01-15T08:00:00Z",
      stageEndTime: "2027-01-15T08:16:40Z",
      stageInterval: "1000",
    });
    expect(status.baseChainTime).to.equal("2027-01-15T08:10:00Z");
    expect(status.due).to.deep.include({
      stage: "5",
      due: false,
      secondsLeft: "400",
    });
    expect((status.lastAction as { text: string }).text).to.match(
      /stage 5: live scores of .*stage-5\.csv pushed \(3 entries\)/,
    );

    // `stage` shows the open stage's end and the time left, on the base chain's
    // clock.
    const stage = await runHardhat(
      ["stage", "--network", "rollup", "--contract", contract],
      env(),
    );
    expect(stage.code, stage.output).to.equal(0);
    expect(stage.stdout).to.match(
      /^base chain time\s+2027-01-15T08:10:00\.000Z$/m,
    );
    expect(stage.stdout).to.match(
      /^open stage ends\s+2027-01-15T08:16:40Z \(in 6 min 40 s\)$/m,
    );
  });

  it("finalizes from the final file once the base chain's clock passes the end, and only when the chain equals it", async () => {
    await write("stage-5.csv", [
      [A, 10n],
      [B, 20n],
      [C, 7n],
    ]);
    expect((await once()).code).to.equal(0);
    passEnd();
    // C was scored live but the final file leaves it out: the chain would keep
    // C's 7, so nothing is finalized.
    await write("stage-5.final.csv", [
      [A, 11n],
      [B, 20n],
    ]);
    const refused = await once();
    const undone = failure(refused, ERRORS.AUTOPILOT.PASSES.STAGE_LEFT_UNDONE);
    expect(undone).to.include("2027-01-15T08:16:40Z");
    expect(undone).to.include(path.join(scoresDir, "stage-5.final.csv"));
    expect(refused.output).to.include(
      `${C} (not in ${path.join(scoresDir, "stage-5.final.csv")}): file 0, chain 7`,
    );
    expect(await finalizations()).to.deep.equal([]);

    await write("stage-5.final.csv", [
      [A, 11n],
      [B, 20n],
      [C, 0n],
    ]);
    const done = await once();
    expect(done.code, done.output).to.equal(0);
    expect(done.stdout).to.match(
      /finalized\s+stage 5 in tx 0x[0-9a-f]{64}, block \d+/,
    );
    expect(done.stdout).to.match(/done\s+finalized stage 5/);
    expect(await score.openStage()).to.equal(6n);
    expect((await score.scores(5n, A)).amount).to.equal(11n);
    expect((await score.scores(5n, C)).amount).to.equal(0n);
    expect(await finalizations()).to.deep.equal([5n]);
    expect(webhook.alerts.map((a) => [a.level, a.stage])).to.deep.equal([
      ["alert", 5],
      ["ok", 5],
    ]);
    expect(defined(webhook.alerts[1], "webhook.alerts[1]").text).to.match(
      /^finalized in tx 0x[0-9a-f]{64}, block \d+, from .*stage-5\.final\.csv \(3 scores, verified on chain\)$/,
    );

    // Run again: nothing is due (the program moved on to stage 6 by its clock,
    // and it runs), nothing is sent.
    const again = await once();
    expect(again.code, again.output).to.equal(0);
    expect(again.stdout).to.match(
      /open stage 6 ends\s+2027-01-15T08:33:20Z \(in 16 min 30 s\)$/m,
    );
    expect(await finalizations()).to.deep.equal([5n]);
  });

  it("catches up three overdue stages in order, each from its own final file, never skipping a missing one", async () => {
    passEnd(2n * INTERVAL + 10n); // stages 5, 6 and 7 have ended; the program is at 7 (its end passed too) → 8
    await write("stage-5.final.csv", [[A, 5n]]);
    await write("stage-7.final.csv", [
      [A, 7n],
      [B, 70n],
    ]);
    const partial = await once();
    expect(
      failure(partial, ERRORS.AUTOPILOT.PASSES.STAGE_LEFT_UNDONE),
    ).to.include(path.join(scoresDir, "stage-6.final.csv"));
    expect(await finalizations()).to.deep.equal([5n]);
    expect(await score.openStage()).to.equal(6n);

    await writeFile(
      path.join(scoresDir, "stage-6.final.csv"),
      "address,score\n",
    ); // nobody scored in stage 6
    const caughtUp = await once();
    expect(caughtUp.code, caughtUp.output).to.equal(0);
    expect(caughtUp.stdout).to.match(/done\s+finalized stages 6, 7$/m);
    expect(await finalizations()).to.deep.equal([5n, 6n, 7n]);
    expect((await score.stages(6n)).totalScore).to.equal(0n);
    expect((await score.scores(7n, B)).amount).to.equal(70n);
    expect((await score.scores(5n, A)).amount).to.equal(5n);
    expect(await score.openStage()).to.equal(8n);
  });

  it("alerts a loopback webhook when the final file is missing, escalates by half the grace, and finalizes once it appears", async () => {
    passEnd(5n);
    const ended = await whileRunning(
      ["--poll-interval", "1", "--grace", "60"],
      async () => {
        await waitFor(() => webhook.alerts.length >= 1, 60_000);
        expect(webhook.alerts[0]).to.deep.include({
          level: "warning",
          stage: 5,
          code: errorCode(ERRORS.AUTOPILOT.PASSES.FINAL_FILE_MISSING),
        });
        const { text } = defined(webhook.alerts[0], "one alert arrived");
        for (const value of [
          "2027-01-15T08:16:40Z",
          "stage-5.final.csv",
          "2027-01-15T08:17:40Z",
        ])
          expect(text).to.include(value);
        expect(
          Date.parse(defined(webhook.alerts[0], "webhook.alerts[0]").at),
        ).to.be.closeTo(Date.now(), 60_000);

        passEnd(31n); // past half the grace on the base chain's clock: the same alert, now at level "alert"
        await waitFor(
          () => webhook.alerts.some((a) => a.level === "alert"),
          30_000,
        );

        await write("stage-5.final.csv", [[A, 1n]]);
        await waitFor(
          () => webhook.alerts.some((a) => a.level === "ok"),
          60_000,
        );
        expect(await score.openStage()).to.equal(6n);
        // The status file is rewritten at the end of the pass that sent the
        // alert: waited for, not raced.
        await waitFor(async () => {
          const status = JSON.parse(await readFile(statusFile(), "utf8")) as {
            lastAction?: { text: string };
          };
          return /^stage 5 finalized in tx/.test(status.lastAction?.text ?? "");
        }, 60_000);
      },
    );
    expect(ended.code).to.equal(143);
    expect(
      existsSync(
        path.join(
          rig.journalDir,
          "autopilot",
          `chain-${rig.node.chainId}`,
          `${contract.toLowerCase()}.lock`,
        ),
      ),
    ).to.equal(false);
    expect(ended.output).to.not.include(DEPLOYER_KEY.slice(2));
  });

  it("refuses a second autopilot on the same contract at once, naming the first's pid and host", async () => {
    const first = spawnHardhat(args("--poll-interval", "5"), env());
    let firstOut = "";
    defined(first.child.stdout, "first.child.stdout").on(
      "data",
      (chunk: Buffer) => (firstOut += chunk.toString()),
    );
    try {
      await waitFor(() => firstOut.includes("open stage 5 ends"), 60_000);
      const second = await once();
      const held = failure(second, ERRORS.AUTOPILOT.SETUP.LOCK_HELD);
      expect(held).to.include(contract);
      expect(held).to.include(String(first.child.pid));
      expect(held).to.include(hostname());
      expect(held).to.include(
        path.join(
          rig.journalDir,
          "autopilot",
          `chain-${rig.node.chainId}`,
          `${contract.toLowerCase()}.lock`,
        ),
      );
    } finally {
      first.child.kill("SIGKILL");
      await first.result;
    }
    // Killed with SIGKILL, it left its lock behind: its pid no longer runs
    // here, so the lock is taken over.
    expect(
      existsSync(
        path.join(
          rig.journalDir,
          "autopilot",
          `chain-${rig.node.chainId}`,
          `${contract.toLowerCase()}.lock`,
        ),
      ),
    ).to.equal(true);
    const afterwards = await once();
    expect(afterwards.code, afterwards.output).to.equal(0);
  });

  it("rides out a base chain that is unreachable for a while", async () => {
    await write("stage-5.final.csv", [[A, 3n]]);
    baseChain.state.offline = true;
    const down = await once();
    expect(failure(down, ERRORS.AUTOPILOT.PASSES.STAGE_LEFT_UNDONE)).to.include(
      baseChain.url,
    );
    const status = JSON.parse(await readFile(statusFile(), "utf8")) as {
      lastError: { code: string };
    };
    const unreachable = errorCode(ERRORS.AUTOPILOT.PASSES.CLOCKS_UNREACHABLE);
    expect(status.lastError.code).to.equal(unreachable);

    await whileRunning(["--poll-interval", "2"], async () => {
      await waitFor(
        () => webhook.alerts.some((a) => a.code === unreachable),
        60_000,
      );
      baseChain.state.offline = false;
      passEnd();
      await waitFor(() => webhook.alerts.some((a) => a.level === "ok"), 60_000);
      expect(await finalizations()).to.deep.equal([5n]);
    });
  });

  it("serves /healthz and /metrics while it runs: Prometheus' text format; 503 after three failed polls, 200 again", async () => {
    await write("stage-5.csv", [
      [A, 2n],
      [B, 3n],
    ]);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const health = async () => {
      const answer = await fetch(`${base}/healthz`);
      return {
        status: answer.status,
        body: (await answer.json()) as Record<string, unknown>,
      };
    };
    const metrics = async () => {
      const answer = await fetch(`${base}/metrics`);
      expect(answer.headers.get("content-type")).to.match(
        /^text\/plain; version=0\.0\.4/,
      );
      const families = parsePrometheusTextFormat(await answer.text());
      const value = (name: string, labels: Record<string, string> = {}) => {
        const family = families.find((f) => f.name === name);
        const sample = family?.metrics.find((m) =>
          Object.entries(labels).every(([k, v]) => m.labels?.[k] === v),
        );
        return sample?.value === undefined ? undefined : Number(sample.value);
      };
      return { families, value };
    };
    const result = await whileRunning(
      ["--poll-interval", "1", "--listen", String(port)],
      async () => {
        // Live scores pushed: the open stage, its end and the count are
        // exported.
        await waitFor(
          async () =>
            (await metrics().catch(() => undefined))?.value(
              "vip_autopilot_scores_pushed_total",
            ) === 2,
          90_000,
        );
        const scraped = await metrics();
        expect(scraped.value("vip_autopilot_open_stage")).to.equal(5);
        expect(scraped.value("vip_autopilot_open_stage_at_risk")).to.equal(0);
        expect(
          scraped.value("vip_autopilot_open_stage_end_timestamp_seconds"),
        ).to.equal(Number(start + INTERVAL));
        expect(
          scraped.value("vip_autopilot_open_stage_seconds_until_due"),
        ).to.be.within(1, Number(INTERVAL));
        expect(scraped.value("vip_autopilot_last_push_timestamp_seconds"))
          .to.be.a("number")
          .and.above(0);
        expect(
          scraped.value("vip_autopilot_alerts_total", { level: "alert" }),
        ).to.equal(0);
        expect(
          scraped.value("vip_autopilot_rpc_errors_total", {
            endpoint: "base-chain-rest",
          }),
        ).to.equal(0);
        expect(
          scraped.families.find(
            (f) => f.name === "vip_autopilot_scores_pushed_total",
          )?.type,
        ).to.equal("COUNTER");
        const up = await health();
        expect(up.status).to.equal(200);
        expect(up.body).to.include({
          healthy: true,
          openStage: "5",
          failedPollsInARow: 0,
        });
        // Nothing secret in either answer: no key, no webhook URL.
        const everything =
          JSON.stringify(up.body) + JSON.stringify(scraped.families);
        expect(everything).not.to.include(DEPLOYER_KEY.slice(2));
        expect(everything).not.to.include(webhook.url);

        // The base chain goes away: 503 with the reason after three failed
        // polls, errors counted by endpoint.
        baseChain.state.offline = true;
        await waitFor(async () => (await health()).status === 503, 120_000);
        const down = await health();
        expect(down.body.failedPollsInARow).to.be.at.least(3);
        expect(down.body.reason).to.match(
          /^\d+ polls failed in a row: cannot tell what is due/,
        );
        expect(
          (await metrics()).value("vip_autopilot_rpc_errors_total", {
            endpoint: "base-chain-rest",
          }),
        ).to.be.at.least(3);

        // It returns: 200 again, and the stage is finalized after its end as
        // ever.
        baseChain.state.offline = false;
        await waitFor(async () => (await health()).status === 200, 60_000);
        await write("stage-5.final.csv", [
          [A, 2n],
          [B, 3n],
        ]);
        passEnd();
        await waitFor(
          async () =>
            (await metrics()).value("vip_autopilot_last_finalized_stage") === 5,
          60_000,
        );
        expect((await health()).body.lastFinalizedStage).to.equal("5");
        expect(
          (await metrics()).value("vip_autopilot_alerts_total", {
            level: "ok",
          }),
        ).to.equal(1);
      },
    );
    // The finalization is news, not a warning.
    expect(result.stdout).to.match(/autopilot ok: stage 5: finalized/);
    expect(result.stderr).not.to.match(/autopilot ok/);
    expect(await finalizations()).to.deep.equal([5n]);
  });

  it("waits for a rollup it cannot reach at start, alerting, then does its work", async () => {
    passEnd();
    await write("stage-5.final.csv", [[A, 9n]]);
    // Every eth_chainId fails for a while: longer than the network's own
    // retries of one request.
    rig.proxy.rules.push({ method: "eth_chainId", fault: "reset", times: 8 });
    await whileRunning(["--poll-interval", "2"], async () => {
      await waitFor(
        () => webhook.alerts.some((a) => a.level === "ok"),
        120_000,
      );
      expect(webhook.alerts[0]).to.deep.include({ level: "warning", stage: 0 });
      expect(defined(webhook.alerts[0], "webhook.alerts[0]").text).to.match(
        /^the autopilot cannot start: .*; retrying with backoff$/,
      );
      expect(await finalizations()).to.deep.equal([5n]);
    });
  });

  it("resumes a push killed midway: every batch sent once, every score verified, the stage finalized once", async () => {
    passEnd();
    await writeFile(
      path.join(scoresDir, "stage-5.final.csv"),
      await readFile(SAMPLE),
    );
    rig.proxy.rules.push({
      method: "eth_sendRawTransaction",
      fault: "hold-answer",
      times: 1,
      after: 1,
    });
    const killed = spawnHardhat(args("--once"), env());
    await rig.proxy.held();
    killed.child.kill("SIGKILL");
    await killed.result;
    expect((await score.stages(5n)).isFinalized).to.equal(false);
    rig.proxy.rules.length = 0;

    const resumed = await once();
    expect(resumed.code, resumed.output).to.equal(0);
    expect(resumed.stdout).to.match(
      /resuming, \d+ of \d+ recorded batch(?:es)? confirmed/,
    );
    expect(await finalizations()).to.deep.equal([5n]);
    const journal = (
      await readFile(
        path.join(
          rig.journalDir,
          `chain-${rig.node.chainId}`,
          contract.toLowerCase(),
          "stage-5.jsonl",
        ),
        "utf8",
      )
    )
      .split("\n")
      .filter((line) => line.includes('"type":"confirmed"'));
    expect(await updateTransactions()).to.equal(journal.length);
    const verify = await runHardhat(
      [
        "scores:verify",
        "--network",
        "rollup",
        "--contract",
        contract,
        "--stage",
        "5",
        "--file",
        SAMPLE,
      ],
      env(),
    );
    expect(verify.code, verify.output).to.equal(0);
  });

  it("finds a finalization killed between its send and its receipt by its nonce, and never sends a second", async () => {
    passEnd();
    // Scores already on chain: the push sends only its marked claim (the
    // score again), then the finalization, which is held on its way.
    await (await score.updateScores(5n, [A], [1n])).wait();
    await write("stage-5.final.csv", [[A, 1n]]);
    const finalizeAt = score.interface
      .getFunction("finalizeStageAt")
      .selector.slice(2);
    rig.proxy.rules.push({
      method: "eth_sendRawTransaction",
      fault: "hold-request",
      times: 1,
      match: (body) => body.includes(finalizeAt),
    });
    const held = rig.proxy.held();
    const killed = spawnHardhat(args("--once"), env());
    await held;
    await provider.send("evm_setAutomine", [false]);
    try {
      // The node takes the finalization; its answer never reaches the
      // autopilot, which is killed.
      expect(await rig.proxy.release({ answer: false })).to.equal(1);
      killed.child.kill("SIGKILL");
      await killed.result;
      rig.proxy.rules.length = 0;
      expect(await score.openStage()).to.equal(5n); // sent, pending, not mined

      const again = spawnHardhat(args("--once"), env());
      let out = "";
      defined(again.child.stdout, "again.child.stdout").on(
        "data",
        (chunk: Buffer) => (out += chunk.toString()),
      );
      // Its proof still holds (nothing wrote the stage since): it goes
      // straight to the finalization, found again by its journal, and waits
      // for its receipt.
      await waitFor(() => /finalizing\s+stage 5, fenced/.test(out), 60_000);
      await waitFor(async () => {
        await provider.send("evm_mine", []);
        return (await score.openStage()) === 6n;
      }, 60_000);
      const resumed = await again.result;
      expect(resumed.code, resumed.output).to.equal(0);
      expect(resumed.stdout).to.match(
        /finalized\s+stage 5 in tx 0x[0-9a-f]{64}, block \d+ \(sent before a restart, found by its journal\)/,
      );
    } finally {
      await provider.send("evm_setAutomine", [true]);
    }
    expect(await finalizations()).to.deep.equal([5n]);
    expect(await score.openStage()).to.equal(6n);
  });

  it("--once: a bad final file is an alert with its lines, nothing is sent, exit non-zero; nothing due is exit 0", async () => {
    const idle = await once();
    expect(idle.code, idle.output).to.equal(0);
    expect(idle.stdout).to.match(/done\s+nothing was due/);

    passEnd();
    await writeFile(
      path.join(scoresDir, "stage-5.final.csv"),
      `address,score\n${A},12\n0x12,5\n${B},-1\n`,
    );
    const blockBefore = await provider.getBlockNumber();
    const bad = await once();
    const file = path.join(scoresDir, "stage-5.final.csv");
    expect(failure(bad, ERRORS.AUTOPILOT.PASSES.STAGE_LEFT_UNDONE)).to.include(
      `${file}:3:`,
    );
    expect(await provider.getBlockNumber()).to.equal(blockBefore);
    expect(webhook.alerts.map((a) => a.level)).to.deep.equal(["alert"]);
    expect(defined(webhook.alerts[0], "webhook.alerts[0]").text).to.include(
      `${file}:4:`,
    );
  });
});
