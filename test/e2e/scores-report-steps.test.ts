import { existsSync } from "node:fs";
import {
  appendFile,
  mkdir,
  mkdtemp,
  readFile,
  rm,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { type JsonRpcProvider, Wallet } from "ethers";

import { ERRORS } from "../../tasks/error-catalog.js";
import {
  type L1RestStandIn,
  startL1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import { TradeLog__factory } from "../../types/ethers-contracts/index.js";
import { failure } from "../helpers/failure.js";
import { runHardhat } from "../helpers/hardhat-cli.js";
import { type HardhatNode, startHardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER_KEY } from "../helpers/keys.js";
import { directProvider } from "../helpers/rig.js";

const T0 = 1_900_000_000n;
const WINDOWS = new Map<bigint, { start: bigint; end: bigint }>([
  [1n, { start: T0, end: T0 + 1000n }],
  [2n, { start: T0 + 1000n, end: T0 + 2000n }],
]);
const A = "0x1000000000000000000000000000000000000001";
const B = "0x2000000000000000000000000000000000000002";

/** One block per entry, at its time: [trader, notional, leverage]. */
const TRADES: { time: bigint; trade: [string, bigint, bigint] }[] = [
  { time: T0 + 10n, trade: [A, 7_000_000n, 1n] },
  { time: T0 + 20n, trade: [B, 1_500n, 1n] },
  { time: T0 + 1500n, trade: [A, 2_000_000n, 1n] },
  { time: T0 + 2100n, trade: [B, 9n, 1n] },
];

const POLICY = (trades: string) => `-- @policy perp-volume
-- @from-stage 1
-- @source trades ${trades} event Trade(address indexed trader, uint256 notional, uint16 leverage) from-block 1
select trader as address, sum(notional) as score
from trades, stage
where block_time >= stage.start_time and block_time < stage.end_time
group by trader
`;

/**
 * The README's two steps on hardhat node: `scores:compute --policy
 * policies/ --out scores/` for each stage (which writes the policy it ran
 * beside the stage's files), then `scores:report --scores-dir scores --out
 * site` with no --policy: the report finds the policy where the manifests
 * name it. A policy file edited there afterwards is refused.
 */
describe("scores:report after scores:compute, as the README's steps run them", function () {
  let node: HardhatNode;
  let provider: JsonRpcProvider;
  let baseChain: L1RestStandIn;
  let work: string;

  before(async () => {
    node = await startHardhatNode();
    provider = directProvider(node);
    const wallet = new Wallet(DEPLOYER_KEY, provider);
    await provider.send("evm_setNextBlockTimestamp", [Number(T0 - 100n)]);
    const log = await new TradeLog__factory(wallet).deploy();
    await log.waitForDeployment();
    for (const { time, trade } of TRADES) {
      await provider.send("evm_setNextBlockTimestamp", [Number(time)]);
      const tx = await log.trade([trade[0]], [trade[1]], [trade[2]]);
      await tx.wait();
    }
    work = await mkdtemp(path.join(tmpdir(), "vip-report-steps-"));
    await mkdir(path.join(work, "policies"));
    await writeFile(
      path.join(work, "policies", "1-perp-volume.sql"),
      POLICY((await log.getAddress()).toLowerCase()),
    );
    baseChain = await startL1RestStandIn({
      stage: 3n,
      stageStartTime: T0 + 2000n,
      stageEndTime: T0 + 3000n,
      stageInterval: 1000n,
      stageData: new Map(WINDOWS),
      now: T0 + 2200n,
    });
  });
  after(async () => {
    await baseChain.close();
    await node.close();
    await rm(work, { recursive: true, force: true });
  });

  const env = () => ({ JSON_RPC_URL: node.url, L1_REST_URL: baseChain.url });
  const report = (scores: string, out: string) =>
    runHardhat(["scores:report", "--scores-dir", scores, "--out", out], env());
  /** `scores:compute --policy policies/ --out <scores>/` for each stage. */
  async function compute(scores: string, stages: string[]): Promise<void> {
    for (const stage of stages) {
      const result = await runHardhat(
        [
          "scores:compute",
          "--network",
          "rollup",
          "--policy",
          `${path.join(work, "policies")}/`,
          "--stage",
          stage,
          "--out",
          `${scores}/`,
          "--data-dir",
          path.join(work, "data"),
        ],
        env(),
      );
      expect(result.code, result.output).to.equal(0);
    }
  }

  it("builds the site from --scores-dir alone, the policy linked by its manifest's name", async () => {
    const scores = path.join(work, "scores");
    await compute(scores, ["1", "2"]);
    expect(existsSync(path.join(scores, "1-perp-volume.sql"))).to.equal(true);
    const site = path.join(work, "site");
    const result = await report(scores, site);
    expect(result.code, result.output).to.equal(0);
    expect(result.stdout).to.match(/stages\s+1, 2/);
    expect(
      await readFile(path.join(site, "1-perp-volume.sql"), "utf8"),
    ).to.equal(
      await readFile(path.join(work, "policies", "1-perp-volume.sql"), "utf8"),
    );
    const page = await readFile(path.join(site, "stage-1.html"), "utf8");
    expect(page).to.include('<a class="file" href="1-perp-volume.sql">');
    expect(page).to.include(
      "npx hardhat scores:audit --network rollup --policy 1-perp-volume.sql " +
        "--stage 1 --manifest stage-1.manifest.json",
    );
    // A's stage 1 score, exact and grouped.
    expect(page).to.include(">7,000,000<");
  });

  it("refuses a policy beside the manifests that is not the one they name, and writes nothing", async () => {
    const scores = path.join(work, "scores-edited");
    await compute(scores, ["1"]);
    const site = path.join(work, "site-edited");
    const built = await report(scores, site);
    expect(built.code, built.output).to.equal(0);
    const before = await readFile(path.join(site, "stage-1.html"), "utf8");
    const copy = path.join(scores, "1-perp-volume.sql");
    await appendFile(copy, "-- edited after the stage was published\n");
    const elsewhere = path.join(work, "site-2");
    const result = await report(scores, elsewhere);
    expect(failure(result, ERRORS.REPORT.SITE.POLICY_MISMATCH)).to.include(
      copy,
    );
    expect(existsSync(elsewhere)).to.equal(false);
    // Nor is an earlier report replaced.
    const again = await report(scores, site);
    expect(failure(again, ERRORS.REPORT.SITE.POLICY_MISMATCH)).to.include(copy);
    expect(await readFile(path.join(site, "stage-1.html"), "utf8")).to.equal(
      before,
    );
  });
});
