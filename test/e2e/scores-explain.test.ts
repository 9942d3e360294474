import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { getAddress, type JsonRpcProvider, Wallet } from "ethers";

import { ERRORS } from "../../tasks/error-catalog.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import { TradeLog__factory } from "../../types/ethers-contracts/index.js";
import { failure } from "../helpers/failure.js";
import { runHardhat } from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER_KEY } from "../helpers/keys.js";
import { deployVipScore, directProvider } from "../helpers/rig.js";

const T0 = 1_950_000_000n;
const WINDOWS = new Map<bigint, { start: bigint; end: bigint }>([
  [1n, { start: T0, end: T0 + 1000n }],
  [2n, { start: T0 + 1000n, end: T0 + 2000n }],
]);
const E18 = 10n ** 18n;

const A = getAddress("0x1000000000000000000000000000000000000001");
const B = getAddress("0x2000000000000000000000000000000000000002");
const NOBODY = getAddress("0x4000000000000000000000000000000000000004");

/** One block per entry, at its time: A trades in stage 1 and in stage 2. */
const TRADES: { time: bigint; trades: [string, bigint, bigint][] }[] = [
  { time: T0 + 10n, trades: [[A, 3n * E18, 2n]] },
  { time: T0 + 500n, trades: [[A, E18, 1n]] },
  {
    time: T0 + 1100n,
    trades: [
      [B, 2n * E18, 5n],
      [A, 5n * E18, 10n],
    ],
  },
  { time: T0 + 1900n, trades: [[B, 7n * E18, 3n]] },
  { time: T0 + 2100n, trades: [[A, 9n * E18, 1n]] },
];

const POLICY = (trades: string) => `-- @policy perp-volume
-- @from-stage 1
-- @source trades ${trades} event Trade(address indexed trader, uint256 notional, uint16 leverage) from-block 1
select trader as address, sum(notional * (leverage + 4)) // 1000000000000000000 as score
from trades, stage
where block_time >= stage.start_time and block_time < stage.end_time
group by trader
`;

/** The policy's score of `address` in stage 2, computed here without SQL. */
function stage2Score(address: string): bigint {
  let sum = 0n;
  for (const block of TRADES)
    if (block.time >= T0 + 1000n && block.time < T0 + 2000n)
      for (const [trader, notional, leverage] of block.trades)
        if (trader === address) sum += notional * (leverage + 4n);
  return sum / E18;
}

interface ExplainedRow {
  block: string;
  txHash: string;
  inWindow: boolean;
  params: Record<string, string>;
}

describe("scores:explain on hardhat node", function () {
  let node: HardhatNode;
  let provider: JsonRpcProvider;
  let baseChain: L1RestStandIn;
  let work: string;
  let policy: string;
  let contract: string;
  const blocks: number[] = [];
  const hashes: string[] = [];

  before(async () => {
    node = await startHardhatNode();
    provider = directProvider(node);
    const wallet = new Wallet(DEPLOYER_KEY, provider);
    await provider.send("evm_setNextBlockTimestamp", [Number(T0 - 100n)]);
    const log = await new TradeLog__factory(wallet).deploy();
    await log.waitForDeployment();
    for (const entry of TRADES) {
      await provider.send("evm_setNextBlockTimestamp", [Number(entry.time)]);
      const tx = await log.trade(
        entry.trades.map((t) => t[0]),
        entry.trades.map((t) => t[1]),
        entry.trades.map((t) => t[2]),
      );
      const receipt = await tx.wait();
      blocks.push(receipt?.blockNumber ?? -1);
      hashes.push(tx.hash);
    }
    const score = await deployVipScore(provider, 2n);
    // The contract holds a score for A that differs from the policy's.
    await (await score.updateScores(2n, [A], [stage2Score(A) + 1n])).wait();
    contract = await score.getAddress();
    work = await mkdtemp(path.join(tmpdir(), "vip-explain-"));
    policy = path.join(work, "perp.sql");
    await writeFile(policy, POLICY((await log.getAddress()).toLowerCase()));
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

  const explain = (address: string, extra: string[] = []) =>
    runHardhat(
      [
        "scores:explain",
        "--network",
        "rollup",
        "--policy",
        policy,
        "--stage",
        "2",
        "--address",
        address,
        "--data-dir",
        path.join(work, "data"),
        "--contract",
        contract,
        ...extra,
      ],
      { JSON_RPC_URL: node.url, L1_REST_URL: baseChain.url },
    );

  it("explains a score with history before the window: score, rank, share, the contract's score, every row in chain order", async () => {
    const result = await explain(A, ["--json"]);
    expect(result.code, result.output).to.equal(0);
    const explained = JSON.parse(result.stdout);
    const a = stage2Score(A);
    const b = stage2Score(B);
    expect(explained.score).to.equal(a.toString());
    expect(explained.scored).to.equal(true);
    expect(explained.total).to.equal((a + b).toString());
    expect(explained.addresses).to.equal(2);
    expect(explained.rank).to.equal(a > b ? 1 : 2);
    expect(explained.final).to.equal(true);
    expect(explained.onChain.score).to.equal((a + 1n).toString());
    expect(explained.onChain.contract).to.equal(contract);
    const [trades] = explained.evidence as { rows: ExplainedRow[] }[];
    // Every Trade naming A up to stage 2's last block: two earlier, one in
    // the window; the trade after the window is not read.
    expect(
      trades?.rows.map((r) => [Number(r.block), r.inWindow]),
    ).to.deep.equal([
      [blocks[0], false],
      [blocks[1], false],
      [blocks[2], true],
    ]);
    expect(trades?.rows[2]?.txHash).to.equal(hashes[2]);
    expect(trades?.rows[2]?.params).to.deep.equal({
      trader: A.toLowerCase(),
      notional: (5n * E18).toString(),
      leverage: "10",
    });
  });

  it("shows an address the policy does not score with 0 and no rows, and says the contract differs for A", async () => {
    const nobody = await explain(NOBODY);
    expect(nobody.code, nobody.output).to.equal(0);
    expect(nobody.stdout).to.match(
      /\nscore\s+0 \(the policy does not score it\)/,
    );
    expect(nobody.stdout).to.match(/0 rows in the window, 0 earlier/);
    const a = await explain(A);
    expect(a.code, a.output).to.equal(0);
    expect(a.stdout).to.include(`DIFFERS from the policy's ${stage2Score(A)}`);
    expect(a.stdout).to.include(hashes[2]);
  });

  it("refuses a bad address before anything is read", async () => {
    const dataDir = path.join(work, "untouched");
    const result = await runHardhat(
      [
        "scores:explain",
        "--network",
        "rollup",
        "--policy",
        policy,
        "--stage",
        "2",
        "--address",
        "0x12345",
        "--data-dir",
        dataDir,
      ],
      { JSON_RPC_URL: node.url, L1_REST_URL: baseChain.url },
    );
    expect(failure(result, ERRORS.CONTRACT.ACCOUNTS.NOT_AN_ADDRESS)).to.include(
      "0x12345",
    );
    const { existsSync } = await import("node:fs");
    expect(existsSync(dataDir)).to.equal(false);
  });
});
