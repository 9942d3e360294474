import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { type JsonRpcProvider, Wallet } from "ethers";

import { ERRORS } from "../../tasks/error-catalog.js";
import { defined, errorCode } from "../../tasks/errors.js";
import { formatUnixTime } from "../../tasks/output.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import type { StandInServer } from "../../tasks/stand-ins/server.js";
import {
  type TradeLog,
  TradeLog__factory,
  type VipScore,
} from "../../types/ethers-contracts/index.js";
import { failure } from "../helpers/failure.js";
import { runHardhat } from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER_KEY } from "../helpers/keys.js";
import { deployVipScore, directProvider } from "../helpers/rig.js";
import { parseScoreCsv } from "../helpers/score-csv.js";
import { startWebhook, type Alert } from "../helpers/webhook.js";

const E18 = 10n ** 18n;
const INTERVAL = 1_000n;
const A = "0x1000000000000000000000000000000000000001";
const B = "0x2000000000000000000000000000000000000002";
const C = "0x3000000000000000000000000000000000000003";

/** Leveraged volume in the stage's window. */
const VOLUME = (trades: string) => `-- @policy perp-volume
-- @from-stage 1
-- @source trades ${trades} event Trade(address indexed trader, uint256 notional, uint16 leverage)
select trader as address, sum(notional * (leverage + 1)) // 1000000000000000000 as score
from trades, stage
where block_time >= stage.start_time and block_time < stage.end_time
group by trader
`;

/**
 * Open positions at the stage's last block: a trade with leverage 0 closes
 * notional, so a trader who closes everything is no longer scored.
 */
const POSITIONS = (trades: string) => `-- @policy open-positions
-- @from-stage 1
-- @source trades ${trades} event Trade(address indexed trader, uint256 notional, uint16 leverage)
select trader as address, sum(case when leverage = 0 then -notional else notional end) // 1000000000000000000 as score
from trades
group by trader
having sum(case when leverage = 0 then -notional else notional end) > 0
`;

describe("stage:autopilot --policy: the stage scored from the rollup's activity, on hardhat node", function () {
  let node: HardhatNode;
  let provider: JsonRpcProvider;
  let webhook: StandInServer & { alerts: Alert[] };
  let baseChain: L1RestStandIn;
  let score: VipScore;
  let tradeLog: TradeLog;
  let work: string;
  let scoresDir: string;
  let start: bigint;
  /** Each test gets its own window, later than the last one's blocks. */
  let nextStart = 1_900_000_000n;

  before(async () => {
    node = await startHardhatNode();
    provider = directProvider(node);
    webhook = await startWebhook();
  });
  after(async () => Promise.all([node.close(), webhook.close()]));

  beforeEach(async () => {
    start = nextStart;
    nextStart += 10_000n;
    baseChain = await startL1RestStandIn({
      stage: 5n,
      stageStartTime: start,
      stageEndTime: start + INTERVAL,
      stageInterval: INTERVAL,
      now: start + 500n,
    });
    await provider.send("evm_setNextBlockTimestamp", [Number(start - 100n)]);
    const wallet = new Wallet(DEPLOYER_KEY, provider);
    tradeLog = await new TradeLog__factory(wallet).deploy();
    await tradeLog.waitForDeployment();
    score = await deployVipScore(provider, 5n);
    work = await mkdtemp(path.join(tmpdir(), "vip-autopilot-policy-"));
    scoresDir = path.join(work, "scores");
    await mkdir(scoresDir);
    webhook.alerts.length = 0;
  });
  afterEach(async () => {
    await baseChain.close();
    await rm(work, { recursive: true, force: true });
  });

  const trade = async (
    time: bigint,
    entries: [string, bigint, number][],
  ): Promise<void> => {
    await provider.send("evm_setNextBlockTimestamp", [Number(time)]);
    await (
      await tradeLog.trade(
        entries.map((e) => e[0]),
        entries.map((e) => e[1]),
        entries.map((e) => e[2]),
      )
    ).wait();
  };
  const writePolicy = async (text: (address: string) => string) => {
    const file = path.join(work, "policy.sql");
    await writeFile(file, text(await tradeLog.getAddress()));
    return file;
  };
  const env = () => ({
    JSON_RPC_URL: node.url,
    PRIVATE_KEY: DEPLOYER_KEY,
    L1_REST_URL: baseChain.url,
  });
  const autopilot = async (policy: string) =>
    runHardhat(
      [
        "stage:autopilot",
        "--network",
        "rollup",
        "--contract",
        await score.getAddress(),
        "--scores-dir",
        scoresDir,
        "--policy",
        policy,
        "--data-dir",
        path.join(work, "vip-data"),
        "--journal-dir",
        path.join(work, "journal"),
        "--webhook",
        webhook.url,
        "--once",
      ],
      env(),
    );
  const onChain = async (address: string) =>
    (await score.scores(5n, address)).amount;

  it("writes and pushes the live file while the stage runs, then the final file once both clocks pass the end, equal to scores:compute's, and finalizes", async () => {
    const policy = await writePolicy(VOLUME);
    await trade(start + 100n, [
      [A, 3n * E18, 1],
      [B, 5n * E18, 0],
    ]);
    let result = await autopilot(policy);
    expect(result.code, result.output).to.equal(0);
    const live = parseScoreCsv(
      await readFile(path.join(scoresDir, "stage-5.csv"), "utf8"),
    );
    expect(live).to.deep.equal(
      new Map([
        [A.toLowerCase(), 6n],
        [B.toLowerCase(), 5n],
      ]),
    );
    expect(existsSync(path.join(scoresDir, "stage-5.final.csv"))).to.equal(
      false,
    );
    expect(await onChain(A)).to.equal(6n);
    expect(await score.openStage()).to.equal(5n);

    // The rest of the stage, a trade after its end (not counted), and the
    // base chain's clock past the end.
    await trade(start + 900n, [[C, 2n * E18, 2]]);
    await trade(start + INTERVAL + 5n, [[A, 100n * E18, 9]]);
    baseChain.state.now = start + INTERVAL + 30n;
    result = await autopilot(policy);
    expect(result.code, result.output).to.equal(0);
    expect(result.stdout).to.match(/^\S+ finalized\s+stage 5 in tx 0x/m);
    expect(await score.openStage()).to.equal(6n);
    const finalCsv = await readFile(
      path.join(scoresDir, "stage-5.final.csv"),
      "utf8",
    );
    expect(parseScoreCsv(finalCsv)).to.deep.equal(
      new Map([
        [A.toLowerCase(), 6n],
        [B.toLowerCase(), 5n],
        [C.toLowerCase(), 6n],
      ]),
    );
    expect(await onChain(C)).to.equal(6n);
    const manifest = JSON.parse(
      await readFile(path.join(scoresDir, "stage-5.manifest.json"), "utf8"),
    );
    expect(manifest.final).to.equal(true);
    expect(manifest.zeroed).to.equal(undefined);

    // A challenger's scores:compute in a project of its own: the same bytes.
    const out = path.join(work, "challenger");
    const computed = await runHardhat(
      [
        "scores:compute",
        "--network",
        "rollup",
        "--policy",
        policy,
        "--stage",
        "5",
        "--out",
        out,
        "--data-dir",
        path.join(work, "challenger-data"),
      ],
      env(),
    );
    expect(computed.code, computed.output).to.equal(0);
    expect(
      await readFile(path.join(out, "stage-5.final.csv"), "utf8"),
    ).to.equal(finalCsv);
    expect(
      await readFile(path.join(out, "stage-5.manifest.json"), "utf8"),
    ).to.equal(
      await readFile(path.join(scoresDir, "stage-5.manifest.json"), "utf8"),
    );
  });

  it("sets to 0 an address scored live that the policy no longer scores at the end", async () => {
    const policy = await writePolicy(POSITIONS);
    await trade(start + 100n, [
      [A, 3n * E18, 1],
      [B, 5n * E18, 2],
    ]);
    let result = await autopilot(policy);
    expect(result.code, result.output).to.equal(0);
    expect(await onChain(B)).to.equal(5n);

    await trade(start + 800n, [[B, 5n * E18, 0]]); // B closes everything
    await trade(start + INTERVAL + 1n, [[A, E18, 1]]);
    baseChain.state.now = start + INTERVAL + 30n;
    result = await autopilot(policy);
    expect(result.code, result.output).to.equal(0);
    expect(await score.openStage()).to.equal(6n);
    expect(await onChain(B)).to.equal(0n);
    expect(await onChain(A)).to.equal(3n);
    const final = parseScoreCsv(
      await readFile(path.join(scoresDir, "stage-5.final.csv"), "utf8"),
    );
    expect(final.get(B.toLowerCase())).to.equal(0n);
    const manifest = JSON.parse(
      await readFile(path.join(scoresDir, "stage-5.manifest.json"), "utf8"),
    );
    expect(manifest.zeroed).to.deep.equal([B.toLowerCase()]);

    // scores:audit, as a challenger runs it, agrees with the contract and
    // with the published manifest.
    const audit = await runHardhat(
      [
        "scores:audit",
        "--network",
        "rollup",
        "--policy",
        policy,
        "--stage",
        "5",
        "--contract",
        await score.getAddress(),
        "--manifest",
        path.join(scoresDir, "stage-5.manifest.json"),
        "--data-dir",
        path.join(work, "audit-data"),
      ],
      env(),
    );
    expect(audit.code, audit.output).to.equal(0);
    expect(audit.output).to.match(/and the manifest matches/);
  });

  it("does not finalize when the final computation fails or the rollup has not passed the end: an alert naming the cause", async () => {
    // Valid while the stage runs; a negative score once the second trade is in.
    const policy = await writePolicy(
      (address) =>
        `-- @policy fragile\n-- @from-stage 1\n-- @source trades ${address} event Trade(address indexed trader, uint256 notional, uint16 leverage)\n` +
        "select trader as address, 10 - count(*) * 6 as score from trades group by trader\n",
    );
    await trade(start + 100n, [[A, E18, 1]]);
    // The base chain has passed the end, the rollup has not.
    baseChain.state.now = start + INTERVAL + 30n;
    // The rollup's head, which the error names: the final scores wait for a
    // block at or after the end.
    const head = defined(await provider.getBlock("latest"), "the latest block");
    let result = await autopilot(policy);
    const waiting = failure(result, ERRORS.AUTOPILOT.PASSES.STAGE_LEFT_UNDONE);
    expect(waiting).to.include(String(head.number));
    expect(waiting).to.include(formatUnixTime(BigInt(head.timestamp)));
    expect(await score.openStage()).to.equal(5n);
    expect(existsSync(path.join(scoresDir, "stage-5.final.csv"))).to.equal(
      false,
    );

    await trade(start + 200n, [[A, E18, 1]]);
    await trade(start + INTERVAL + 2n, [[B, E18, 1]]);
    result = await autopilot(policy);
    const failed = failure(result, ERRORS.AUTOPILOT.PASSES.STAGE_LEFT_UNDONE);
    expect(failed).to.include(policy);
    expect(failed).to.include(A);
    expect(await score.openStage()).to.equal(5n);
    expect(existsSync(path.join(scoresDir, "stage-5.final.csv"))).to.equal(
      false,
    );
    const alert = webhook.alerts.find(
      (a) =>
        a.level === "alert" &&
        a.code === errorCode(ERRORS.AUTOPILOT.PASSES.FINAL_COMPUTE_FAILED),
    );
    expect(alert?.stage).to.equal(5);
    expect(alert?.text).to.include(
      "0x1000000000000000000000000000000000000001",
    );
    expect(alert?.text).to.include("-2");
  });
});
