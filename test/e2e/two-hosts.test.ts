import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { type JsonRpcProvider, Wallet } from "ethers";

import { type ErrorDescriptor, ERRORS } from "../../tasks/error-catalog.js";
import { errorCode } from "../../tasks/errors.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import {
  type TradeLog,
  TradeLog__factory,
  type VipScore,
} from "../../types/ethers-contracts/index.js";
import { type AutopilotHost, startHost } from "../helpers/autopilot-host.js";
import { failure } from "../helpers/failure.js";
import { runHardhat } from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import {
  DEPLOYER,
  DEPLOYER_KEY,
  LEDGER_ADDRESS,
  LEDGER_KEY,
  OUTSIDER,
  OUTSIDER_KEY,
} from "../helpers/keys.js";
import { deployVipScore, directProvider } from "../helpers/rig.js";
import { parseScoreCsv } from "../helpers/score-csv.js";
import { waitFor } from "../helpers/wait.js";

const E18 = 10n ** 18n;
const INTERVAL = 1_000n;
/** The standby acts on a stage this long after its end (base chain's clock). */
const STANDBY_AFTER = 30n;
const PRIMARY = DEPLOYER.toLowerCase();
const STANDBY = LEDGER_ADDRESS.toLowerCase();
const [A, B, C, D] = [1, 2, 3, 4].map((n) =>
  `0x${String(n).repeat(40)}`.slice(0, 42),
) as [string, string, string, string];

/** A trade: trader, notional, leverage. */
type Trade = [string, bigint, number];

/** Leveraged volume in the stage's window, `times` the leverage plus one. */
const volumePolicy = (trades: string, extra = 1) => `-- @policy perp-volume
-- @from-stage 1
-- @source trades ${trades} event Trade(address indexed trader, uint256 notional, uint16 leverage)
select trader as address, sum(notional * (leverage + ${extra})) // 1000000000000000000 as score
from trades, stage
where block_time >= stage.start_time and block_time < stage.end_time
group by trader
`;

/** The policy's scores worked out here, from the trades alone. */
function expectedScores(
  trades: { time: bigint; entries: Trade[] }[],
  window: [bigint, bigint],
  extra = 1,
): Map<string, bigint> {
  const sums = new Map<string, bigint>();
  for (const { time, entries } of trades) {
    if (time < window[0] || time >= window[1]) continue;
    for (const [trader, notional, leverage] of entries)
      sums.set(
        trader.toLowerCase(),
        (sums.get(trader.toLowerCase()) ?? 0n) +
          notional * BigInt(leverage + extra),
      );
  }
  return new Map([...sums].map(([trader, sum]) => [trader, sum / E18]));
}

describe("two autopilot hosts, a primary and a standby, with the chain as the arbiter (hardhat node)", function () {
  let node: HardhatNode;
  let provider: JsonRpcProvider;
  let baseChain: L1RestStandIn;
  let score: VipScore;
  let tradeLog: TradeLog;
  let work: string;
  let start: bigint;
  let hosts: AutopilotHost[];
  let trades: { time: bigint; entries: Trade[] }[];
  /** Each test gets its own window, later than the last one's blocks. */
  let nextStart = 2_000_000_000n;

  before(async () => {
    node = await startHardhatNode();
    provider = directProvider(node);
  });
  after(async () => node.close());

  beforeEach(async () => {
    start = nextStart;
    nextStart += 10_000n;
    hosts = [];
    trades = [];
    baseChain = await startL1RestStandIn({
      stage: 5n,
      stageStartTime: start,
      stageEndTime: start + INTERVAL,
      stageInterval: INTERVAL,
      now: start + 50n,
    });
    await provider.send("evm_setNextBlockTimestamp", [Number(start - 100n)]);
    tradeLog = await new TradeLog__factory(
      new Wallet(OUTSIDER_KEY, provider),
    ).deploy();
    await tradeLog.waitForDeployment();
    score = await deployVipScore(provider, 5n);
    await (
      await score
        .connect(new Wallet(DEPLOYER_KEY, provider))
        .addAllowList(LEDGER_ADDRESS)
    ).wait();
    work = await mkdtemp(path.join(tmpdir(), "vip-two-hosts-"));
  });
  afterEach(async function () {
    await Promise.all(hosts.map((host) => host.stop()));
    // A failure says what each host printed: a test of two processes is
    // read from their logs.
    if (this.currentTest?.state === "failed")
      for (const h of hosts) {
        const log = path.join(
          tmpdir(),
          `vip-two-hosts-${h.name}-${Date.now()}.log`,
        );
        await writeFile(log, h.output());
        console.log(
          `--- ${h.name} (whole log: ${log}) ---\n${h.output().slice(-6_000)}`,
        );
      }
    await baseChain.close();
    await rm(work, { recursive: true, force: true });
  });

  /** A trade on the rollup, in a block of its own at `time` (the rollup's clock). */
  const trade = async (time: bigint, entries: Trade[]) => {
    trades.push({ time, entries });
    await provider.send("evm_setNextBlockTimestamp", [Number(time)]);
    await (
      await tradeLog.trade(
        entries.map((e) => e[0]),
        entries.map((e) => e[1]),
        entries.map((e) => e[2]),
      )
    ).wait();
  };
  const policyFile = async (name: string, extra = 1) => {
    const file = path.join(work, `${name}.sql`);
    await writeFile(file, volumePolicy(await tradeLog.getAddress(), extra));
    return file;
  };
  const host = async (
    name: "primary" | "standby",
    policy: string,
  ): Promise<AutopilotHost> => {
    const started = await startHost({
      name,
      key: name === "primary" ? DEPLOYER_KEY : LEDGER_KEY,
      ...(name === "standby" ? { standbyAfter: Number(STANDBY_AFTER) } : {}),
      policy,
      nodeUrl: node.url,
      baseChainUrl: baseChain.url,
      contract: await score.getAddress(),
      work,
    });
    hosts.push(started);
    return started;
  };
  const end = (stage = 5n) => start + (stage - 4n) * INTERVAL;
  /** The stage's scores on chain, every page. */
  const onChain = async (stage: bigint) => {
    const scores = new Map<string, bigint>();
    for (let offset = 0n; ; offset += 500n) {
      const page = await score.getScores(stage, offset, 500n);
      for (const entry of page)
        scores.set(entry.addr.toLowerCase(), entry.amount);
      if (page.length < 500) return scores;
    }
  };
  /** Who sent each finalization of the contract, by stage. */
  const finalizers = async () => {
    const logs = await provider.getLogs({
      address: await score.getAddress(),
      topics: [score.interface.getEvent("FinalizeStage").topicHash],
      fromBlock: 0,
    });
    const found = new Map<bigint, string>();
    for (const log of logs) {
      const tx = await provider.getTransaction(log.transactionHash);
      found.set(BigInt(log.data), (tx?.from ?? "").toLowerCase());
    }
    return found;
  };
  const openStage = () => score.openStage();
  const nonceOf = (address: string) => provider.getTransactionCount(address);
  const isRunning = (h: AutopilotHost) =>
    h.child.exitCode === null && h.child.signalCode === null;
  /** Both clocks past a stage's end: a rollup block after it, the base chain's time. */
  const passEnd = async (stage: bigint, baseSeconds: bigint) => {
    await trade(end(stage) + 5n, [[D, E18, 0]]);
    baseChain.state.now = end(stage) + baseSeconds;
  };
  const alertsOf = (h: AutopilotHost, descriptor: ErrorDescriptor) =>
    h.webhook.alerts.filter((a) => a.code === errorCode(descriptor));

  /**
   * Both hosts on one policy, stage 5 running with its first trades, and the
   * primary's live push of them on chain.
   */
  const bothLive = async () => {
    const policy = await policyFile("policy");
    const primary = await host("primary", policy);
    const standby = await host("standby", policy);
    await trade(start + 100n, [
      [A, 3n * E18, 1],
      [B, 5n * E18, 0],
    ]);
    await waitFor(
      async () => (await score.scores(5n, A)).amount === 6n,
      120_000,
    );
    return { policy, primary, standby };
  };

  it("both healthy: the primary finalizes each stage, the standby sends no transaction at all", async () => {
    const standbyNonce = await nonceOf(LEDGER_ADDRESS);
    const { primary, standby } = await bothLive();

    await passEnd(5n, 10n);
    await waitFor(async () => (await openStage()) === 6n, 120_000);
    // Well past the standby's time: the stage is finalized, so it has nothing to do.
    baseChain.state.now = end(5n) + 200n;
    await trade(end(5n) + 100n, [[C, 2n * E18, 2]]);
    await waitFor(
      async () => (await score.scores(6n, C)).amount === 6n,
      120_000,
    );
    await passEnd(6n, 10n);
    await waitFor(async () => (await openStage()) === 7n, 120_000);
    baseChain.state.now = end(6n) + 200n;
    // The standby sees both stages closed by the primary (it polls every second).
    await waitFor(async () => {
      const status = await standby.status();
      return (
        (status?.recentStages ?? []).filter((s) => s.finalizedBy === PRIMARY)
          .length >= 2
      );
    }, 60_000);

    expect([...(await finalizers())]).to.deep.equal([
      [5n, PRIMARY],
      [6n, PRIMARY],
    ]);
    expect(await nonceOf(LEDGER_ADDRESS)).to.equal(standbyNonce);
    expect(await onChain(5n)).to.deep.equal(
      expectedScores(trades, [end(4n), end(5n)]),
    );
    const status = await standby.status();
    expect(status).to.deep.include({
      role: "standby",
      standbyAfter: "30",
      signer: LEDGER_ADDRESS,
    });
    expect(status?.recentStages?.find((s) => s.stage === "5")).to.deep.include({
      finalPushedBy: [PRIMARY],
      finalizedBy: PRIMARY,
    });
    expect(status?.otherSignerLastWrite?.signer).to.equal(PRIMARY);
    expect((await primary.status())?.role).to.equal("primary");
    expect(primary.output()).to.match(/role\s+primary/);
    expect(standby.output()).to.match(
      /role\s+standby: sends nothing until a stage is 30 s past its end/,
    );
    expect(
      alertsOf(standby, ERRORS.AUTOPILOT.TWO_HOSTS.STANDBY_TAKES_OVER),
    ).to.deep.equal([]);
    expect(isRunning(primary) && isRunning(standby)).to.equal(true);
    // `npx hardhat stage` on the standby's host says who did the last stages,
    // its role, and the primary's last write it saw.
    const shown = await runHardhat(
      [
        "stage",
        "--network",
        "rollup",
        "--contract",
        await score.getAddress(),
        "--journal-dir",
        standby.journalDir,
      ],
      { JSON_RPC_URL: node.url, L1_REST_URL: baseChain.url },
    );
    expect(shown.code, shown.output).to.equal(0);
    for (const stage of [5, 6])
      expect(shown.stdout).to.match(
        new RegExp(
          `stage ${stage}\\s+final scores pushed by ${PRIMARY}; finalized by ${PRIMARY} in tx 0x[0-9a-f]{64}`,
        ),
      );
    expect(shown.stdout).to.match(
      /this host\s+standby \(acts 30 s after a stage's end\), signer 0x70997970C51812dc3A010C7d01b50e0d17dc79C8/,
    );
    expect(shown.stdout).to.match(
      new RegExp(`other signer\\s+${PRIMARY} last wrote stage \\d+`),
    );
  });

  it("the primary SIGKILLed shortly before an end: the standby finalizes within --standby-after plus two polls, equal to the policy computed here", async () => {
    const standbyNonce = await nonceOf(LEDGER_ADDRESS);
    const { policy, primary, standby } = await bothLive();
    baseChain.state.now = end(5n) - 20n;
    await trade(start + 900n, [[C, 2n * E18, 2]]);
    primary.child.kill("SIGKILL");
    await primary.result;

    await passEnd(5n, STANDBY_AFTER - 1n);
    // Its time has not come: two of its polls go by, and nothing is sent.
    const before = (await standby.status())?.passes ?? 0;
    await waitFor(
      async () => ((await standby.status())?.passes ?? 0) >= before + 3,
      60_000,
    );
    expect(await nonceOf(LEDGER_ADDRESS)).to.equal(standbyNonce);
    expect(await openStage()).to.equal(5n);

    baseChain.state.now = end(5n) + STANDBY_AFTER;
    const atItsTime = (await standby.status())?.passes ?? 0;
    await waitFor(async () => (await openStage()) === 6n, 120_000);
    const finalizedAt = (await standby.status())?.passes ?? 0;
    // The pass under way when the clock moved, then the next: at most two.
    expect(finalizedAt - atItsTime).to.be.at.most(2);

    expect((await finalizers()).get(5n)).to.equal(STANDBY);
    const expected = expectedScores(trades, [end(4n), end(5n)]);
    expect(expected.get(C.toLowerCase())).to.equal(6n);
    expect(await onChain(5n)).to.deep.equal(expected);
    expect(
      parseScoreCsv(
        await readFile(
          path.join(standby.scoresDir, "stage-5.final.csv"),
          "utf8",
        ),
      ),
    ).to.deep.equal(expected);
    const takeover = alertsOf(
      standby,
      ERRORS.AUTOPILOT.TWO_HOSTS.STANDBY_TAKES_OVER,
    );
    expect(takeover.map((a) => [a.level, a.stage])).to.deep.equal([
      ["warning", 5],
    ]);
    expect(
      standby.webhook.alerts.some(
        (a) => a.level === "ok" && /taken over by this standby/.test(a.text),
      ),
    ).to.equal(true);

    // The primary, restarted, says at once how the last stage was closed, and
    // does nothing for it.
    const restarted = await host("primary", policy);
    await waitFor(
      () =>
        alertsOf(restarted, ERRORS.AUTOPILOT.TWO_HOSTS.FINALIZED_BY_OTHER)
          .length > 0,
      120_000,
    );
    expect(
      alertsOf(restarted, ERRORS.AUTOPILOT.TWO_HOSTS.FINALIZED_BY_OTHER)[0]
        ?.text,
    ).to.include(`stage 5 was finalized by ${STANDBY}`);
    expect(restarted.output()).not.to.match(
      /stage 5 ended at .*pushing its final scores|finalizing\s+stage 5/,
    );
  });

  it("the primary SIGSTOPped with a live push in flight across the end: the fence refuses the standby's first finalization, the stage equals the final file, and the primary, resumed, says so and does the next stage", async () => {
    const { primary, standby } = await bothLive();

    // The primary's next live push is held on its way to the node, and the
    // primary frozen with it in flight.
    primary.proxy.rules.push({
      method: "eth_sendRawTransaction",
      fault: "hold-request",
      times: 1,
    });
    const held = primary.proxy.held();
    await trade(start + 200n, [[C, 2n * E18, 2]]); // live: C 6
    await held;
    primary.child.kill("SIGSTOP");
    await trade(start + 300n, [[C, E18, 0]]); // final: C 7

    // The standby's finalization is held too, so the stale push lands between
    // its proof and its finalization.
    const finalizeAt = score.interface
      .getFunction("finalizeStageAt")
      .selector.slice(2);
    standby.proxy.rules.push({
      method: "eth_sendRawTransaction",
      fault: "hold-request",
      times: 1,
      match: (body) => body.includes(finalizeAt),
    });
    const standbyHeld = standby.proxy.held();
    await passEnd(5n, STANDBY_AFTER);
    await standbyHeld;
    const writes = await score.writeCount(5n);
    expect(await primary.proxy.release()).to.equal(1);
    await waitFor(async () => (await score.writeCount(5n)) > writes, 60_000);
    expect((await score.scores(5n, C)).amount).to.equal(6n); // the stale live score, after the end
    expect(await standby.proxy.release()).to.equal(1);

    await waitFor(async () => (await openStage()) === 6n, 120_000);
    expect(standby.output()).to.match(
      /fenced\s+stage 5 was written after its proof/,
    );
    const expected = expectedScores(trades, [end(4n), end(5n)]);
    expect(expected.get(C.toLowerCase())).to.equal(7n);
    expect(await onChain(5n)).to.deep.equal(expected);
    expect((await finalizers()).get(5n)).to.equal(STANDBY);

    primary.child.kill("SIGCONT");
    await waitFor(
      () =>
        alertsOf(primary, ERRORS.AUTOPILOT.TWO_HOSTS.FINALIZED_BY_OTHER)
          .length > 0,
      120_000,
    );
    expect(
      alertsOf(primary, ERRORS.AUTOPILOT.TWO_HOSTS.FINALIZED_BY_OTHER).map(
        (a) => [a.level, a.stage],
      ),
    ).to.deep.equal([["warning", 5]]);
    expect(await onChain(5n)).to.deep.equal(expected);

    // The next stage is the primary's again.
    const standbyNonce = await nonceOf(LEDGER_ADDRESS);
    await trade(end(5n) + 100n, [[B, 2n * E18, 1]]);
    await passEnd(6n, 10n);
    await waitFor(async () => (await openStage()) === 7n, 120_000);
    expect((await finalizers()).get(6n)).to.equal(PRIMARY);
    expect(await nonceOf(LEDGER_ADDRESS)).to.equal(standbyNonce);
  });

  it("the primary cut off from the rollup's node: the standby takes over; back, the primary neither pushes nor finalizes again", async () => {
    const policy = await policyFile("policy");
    const primary = await host("primary", policy);
    const standby = await host("standby", policy);
    await trade(start + 100n, [[A, 3n * E18, 1]]);
    await waitFor(
      async () => (await score.scores(5n, A)).amount === 6n,
      120_000,
    );

    primary.proxy.rules.push({ method: "*", fault: "reset", times: Infinity });
    const primaryNonce = await nonceOf(DEPLOYER);
    await trade(start + 600n, [[B, 4n * E18, 1]]);
    await passEnd(5n, STANDBY_AFTER + 5n);
    await waitFor(async () => (await openStage()) === 6n, 120_000);
    expect((await finalizers()).get(5n)).to.equal(STANDBY);

    primary.proxy.rules.length = 0;
    await waitFor(
      () =>
        alertsOf(primary, ERRORS.AUTOPILOT.TWO_HOSTS.FINALIZED_BY_OTHER)
          .length > 0,
      120_000,
    );
    // It checked the finalized stage against its own final file.
    await waitFor(
      () =>
        /agrees\s+stage 5 on chain equals this host's final file/.test(
          primary.output(),
        ),
      120_000,
    );
    expect(await nonceOf(DEPLOYER)).to.equal(primaryNonce);
    expect(await onChain(5n)).to.deep.equal(
      expectedScores(trades, [end(4n), end(5n)]),
    );
    expect(
      alertsOf(standby, ERRORS.AUTOPILOT.TWO_HOSTS.STANDBY_TAKES_OVER),
    ).to.have.length(1);
    expect(
      alertsOf(primary, ERRORS.AUTOPILOT.TWO_HOSTS.FINALIZED_BY_OTHER),
    ).to.have.length(1);
  });

  it("two hosts with different policies: neither finalizes, both alert with the differing addresses", async () => {
    await trade(start + 100n, [
      [A, 3n * E18, 1],
      [B, 5n * E18, 0],
    ]);
    // Both hosts come up after the end and past the standby's time (the
    // primary was late): both act on the stage.
    await passEnd(5n, STANDBY_AFTER + 1n);
    const primary = await host("primary", await policyFile("primary", 1));
    const standby = await host("standby", await policyFile("standby", 2));
    // Every send of either host is held, and let through in rounds: both
    // final pushes land before either host can finalize.
    for (const h of [primary, standby])
      h.proxy.rules.push({
        method: "eth_sendRawTransaction",
        fault: "hold-request",
        times: Infinity,
      });
    await waitFor(
      () => primary.proxy.holding() > 0 && standby.proxy.holding() > 0,
      120_000,
    );
    const disagreed = () =>
      alertsOf(primary, ERRORS.AUTOPILOT.TWO_HOSTS.HOSTS_DISAGREE).length > 0 &&
      alertsOf(standby, ERRORS.AUTOPILOT.TWO_HOSTS.HOSTS_DISAGREE).length > 0;
    await waitFor(async () => {
      await primary.proxy.release();
      await standby.proxy.release();
      return disagreed();
    }, 120_000);

    expect(await openStage()).to.equal(5n);
    expect(await finalizers()).to.deep.equal(new Map());
    for (const [h, theirs, ours] of [
      [primary, STANDBY, PRIMARY],
      [standby, PRIMARY, STANDBY],
    ] as const) {
      const text =
        alertsOf(h, ERRORS.AUTOPILOT.TWO_HOSTS.HOSTS_DISAGREE)[0]?.text ?? "";
      expect(text).to.include("hosts disagree on stage 5");
      expect(text).to.include(A.toLowerCase());
      expect(text).to.include(`from ${theirs}`);
      expect(text.toLowerCase()).to.include(`signs as ${ours}`);
    }
  });

  it("refuses at start a standby whose signer is not on the allow list, and a --standby-after that is not whole seconds, sending nothing", async () => {
    const contract = await score.getAddress();
    const scoresDir = path.join(work, "scores");
    await mkdir(scoresDir);
    const args = (standbyAfter: string) => [
      "stage:autopilot",
      "--network",
      "rollup",
      "--contract",
      contract,
      "--scores-dir",
      scoresDir,
      "--journal-dir",
      path.join(work, "journal"),
      "--standby-after",
      standbyAfter,
      "--once",
    ];
    const env = (key: string) => ({
      JSON_RPC_URL: node.url,
      PRIVATE_KEY: key,
      L1_REST_URL: baseChain.url,
    });
    const outsider = await nonceOf(OUTSIDER);
    const refused = await runHardhat(args("30"), env(OUTSIDER_KEY));
    const message = failure(
      refused,
      ERRORS.CONTRACT.ALLOW_LIST.SIGNER_NOT_ALLOWED,
    );
    expect(message).to.include(OUTSIDER);
    expect(refused.stdout).to.match(
      /role\s+standby: sends nothing until a stage is 30 s past its end/,
    );
    expect(await nonceOf(OUTSIDER)).to.equal(outsider);

    const standbyNonce = await nonceOf(LEDGER_ADDRESS);
    const notSeconds = await runHardhat(args("soon"), env(LEDGER_KEY));
    expect(
      failure(notSeconds, ERRORS.AUTOPILOT.SETUP.NOT_WHOLE_SECONDS),
    ).to.include("--standby-after soon");
    expect(await nonceOf(LEDGER_ADDRESS)).to.equal(standbyNonce);
  });
});
