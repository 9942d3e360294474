import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { type JsonRpcProvider, Wallet } from "ethers";

import { ERRORS, type ErrorDescriptor } from "../../tasks/error-catalog.js";
import { errorCode } from "../../tasks/errors.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import {
  TestToken__factory,
  TradeLog__factory,
} from "../../types/ethers-contracts/index.js";
import { catalogEntry, failure, failureCode } from "../helpers/failure.js";
import {
  PROJECT_ROOT,
  runHardhat,
  spawnHardhat,
} from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import {
  changeIndex,
  onlySourceId,
  queryIndex,
} from "../helpers/index-query.js";
import { DEPLOYER, DEPLOYER_KEY } from "../helpers/keys.js";
import {
  startMinievmProxy,
  type MinievmProxy,
} from "../helpers/minievm-proxy.js";
import { deployVipScore, directProvider } from "../helpers/rig.js";
import { parseScoreCsv } from "../helpers/score-csv.js";

// The base chain's windows. Stage 1 is longer than today's interval: a window
// derived from the interval would miss its first trade.
const T0 = 1_900_000_000n;
const WINDOWS = new Map<bigint, { start: bigint; end: bigint }>([
  [1n, { start: T0 - 500n, end: T0 + 1000n }],
  [2n, { start: T0 + 1000n, end: T0 + 2000n }],
]);
const STAGE3 = { start: T0 + 2000n, end: T0 + 3000n };
const E18 = 10n ** 18n;

const A = "0x1000000000000000000000000000000000000001";
const B = "0x2000000000000000000000000000000000000002";
const C = "0x3000000000000000000000000000000000000003";

interface Trade {
  time: bigint;
  trades: [string, bigint, bigint][];
}

// One block per entry, at its time. Boundaries: a block exactly at stage 2's
// start (T0 + 1000), none at stage 3's (T0 + 2000 falls between T0 + 1500 and
// T0 + 2005), one after stage 3's end.
const TRADES: Trade[] = [
  { time: T0 - 100n, trades: [[A, 3n * E18, 2n]] },
  {
    time: T0 + 10n,
    trades: [
      [A, 5n * E18, 10n],
      [B, E18, 1n],
    ],
  },
  { time: T0 + 999n, trades: [[B, 7n * E18 + 123n, 3n]] },
  {
    time: T0 + 1000n,
    trades: [
      [A, 2n * E18, 5n],
      [C, 11n * E18, 20n],
    ],
  },
  { time: T0 + 1500n, trades: [[C, E18 / 3n, 7n]] },
  { time: T0 + 2005n, trades: [[A, 4n * E18, 1n]] },
  { time: T0 + 2500n, trades: [[B, 9n * E18, 2n]] },
  { time: T0 + 3100n, trades: [[C, 6n * E18, 4n]] },
];

/** Token transfers, each in its own block at its time (after the trades' blocks). */
const TRANSFERS: { time: bigint; to: string; value: bigint }[] = [
  { time: T0 - 50n, to: A, value: 40n * E18 },
  { time: T0 + 1200n, to: B, value: 25n * E18 },
  { time: T0 + 2600n, to: C, value: 7n * E18 },
  { time: T0 + 3150n, to: A, value: 1n * E18 },
];

const PERP = (trades: string) => `-- @policy perp-volume
-- @from-stage 1
-- @source trades ${trades} event Trade(address indexed trader, uint256 notional, uint16 leverage) from-block 1
select trader as address, sum(notional * 20 * (leverage + 4)) // (5 * 1000000000000000000) as score
from trades, stage
where block_time >= stage.start_time and block_time < stage.end_time
group by trader
`;

// From stage 3 on: token balances at the stage's last block, built from every
// Transfer since the token was made (history before the window).
const HOLDERS = (token: string) => `-- @policy holders
-- @from-stage 3
-- @source transfers ${token} event Transfer(address indexed from, address indexed to, uint256 value)
with moves as (
  select "to" as address, value as delta from transfers
  union all
  select "from" as address, -value as delta from transfers
)
select address, sum(delta) // 1000000000000000000 as score
from moves
where address <> '0x0000000000000000000000000000000000000000'
group by address
having sum(delta) > 0
`;

/** What the perp policy gives for a window, computed here without SQL. */
function expectedPerp(window: {
  start: bigint;
  end: bigint;
}): Map<string, bigint> {
  const sums = new Map<string, bigint>();
  for (const block of TRADES)
    if (block.time >= window.start && block.time < window.end)
      for (const [trader, notional, leverage] of block.trades)
        sums.set(
          trader,
          (sums.get(trader) ?? 0n) + notional * 20n * (leverage + 4n),
        );
  return new Map([...sums].map(([a, s]) => [a.toLowerCase(), s / (5n * E18)]));
}

describe("scores from a published policy: scores:index, scores:compute, scores:audit on hardhat node", function () {
  let node: HardhatNode;
  let provider: JsonRpcProvider;
  let baseChain: L1RestStandIn;
  let work: string;
  let tradeLog: string;
  let token: string;
  let policies: string;
  /** Block number of each trade entry and transfer. */
  const tradeBlocks: number[] = [];
  const SUPPLY = 1_000_000n * E18;

  before(async () => {
    node = await startHardhatNode();
    provider = directProvider(node);
    const wallet = new Wallet(DEPLOYER_KEY, provider);
    const at = async (
      time: bigint,
      send: () => Promise<{ wait: () => Promise<unknown> }>,
    ) => {
      await provider.send("evm_setNextBlockTimestamp", [Number(time)]);
      const tx = await send();
      const receipt = (await tx.wait()) as { blockNumber: number };
      return receipt.blockNumber;
    };
    await provider.send("evm_setNextBlockTimestamp", [Number(T0 - 1000n)]);
    const trades = await new TradeLog__factory(wallet).deploy();
    await trades.waitForDeployment();
    const erc20 = await new TestToken__factory(wallet).deploy(DEPLOYER, SUPPLY);
    await erc20.waitForDeployment();
    tradeLog = (await trades.getAddress()).toLowerCase();
    token = (await erc20.getAddress()).toLowerCase();
    const events = [
      ...TRADES.map((t) => ({ time: t.time, trade: t })),
      ...TRANSFERS.map((t) => ({ time: t.time, transfer: t })),
    ].sort((x, y) => (x.time < y.time ? -1 : 1));
    for (const event of events) {
      if ("trade" in event && event.trade !== undefined) {
        const t = event.trade;
        tradeBlocks.push(
          await at(t.time, () =>
            trades.trade(
              t.trades.map((x) => x[0]),
              t.trades.map((x) => x[1]),
              t.trades.map((x) => x[2]),
            ),
          ),
        );
      } else if ("transfer" in event && event.transfer !== undefined) {
        const t = event.transfer;
        await at(t.time, () => erc20.transfer(t.to, t.value));
      }
    }
    work = await mkdtemp(path.join(tmpdir(), "vip-policy-"));
    policies = path.join(work, "policies");
    await writeFile(path.join(work, "perp.sql"), PERP(tradeLog));
    const { mkdir } = await import("node:fs/promises");
    await mkdir(policies);
    await writeFile(path.join(policies, "1-perp.sql"), PERP(tradeLog));
    await writeFile(path.join(policies, "3-holders.sql"), HOLDERS(token));
  });
  after(async () => {
    await node.close();
    await rm(work, { recursive: true, force: true });
  });

  beforeEach(async () => {
    baseChain = await startL1RestStandIn({
      stage: 3n,
      stageStartTime: STAGE3.start,
      stageEndTime: STAGE3.end,
      stageInterval: 1000n,
      stageData: new Map(WINDOWS),
      now: T0 + 2550n,
    });
  });
  afterEach(async () => baseChain.close());

  const env = (rpc = node.url) => ({
    JSON_RPC_URL: rpc,
    L1_REST_URL: baseChain.url,
  });
  const compute = (
    stage: number,
    out: string,
    data: string,
    policy = policies,
    rpc = node.url,
    extra: string[] = [],
  ) =>
    runHardhat(
      [
        "scores:compute",
        "--network",
        "rollup",
        "--policy",
        policy,
        "--stage",
        String(stage),
        "--out",
        out,
        "--data-dir",
        data,
        ...extra,
      ],
      env(rpc),
    );
  let fresh = 0;
  const dirs = async () => {
    fresh++;
    return {
      out: path.join(work, `out-${fresh}`),
      data: path.join(work, `data-${fresh}`),
    };
  };

  it("scores closed stages from the base chain's recorded windows, boundary blocks by the rollup's own timestamps", async () => {
    const { out, data } = await dirs();
    for (const stage of [1, 2]) {
      const result = await compute(stage, out, data);
      expect(result.code, result.output).to.equal(0);
      const csv = await readFile(
        path.join(out, `stage-${stage}.final.csv`),
        "utf8",
      );
      const window = WINDOWS.get(BigInt(stage));
      expect(window).to.not.equal(undefined);
      expect(parseScoreCsv(csv)).to.deep.equal(
        expectedPerp(window as { start: bigint; end: bigint }),
      );
      const manifest = JSON.parse(
        await readFile(path.join(out, `stage-${stage}.manifest.json`), "utf8"),
      );
      expect(manifest.final).to.equal(true);
      expect(manifest.policy.name).to.equal("perp-volume");
      expect(manifest.window).to.deep.equal({
        start: String(window?.start),
        end: String(window?.end),
      });
    }
    const one = JSON.parse(
      await readFile(path.join(out, "stage-1.manifest.json"), "utf8"),
    );
    const two = JSON.parse(
      await readFile(path.join(out, "stage-2.manifest.json"), "utf8"),
    );
    // The block at T0 + 1000 is stage 2's first; stage 1 ends on the block before it.
    expect(Number(two.blocks.first.number)).to.equal(tradeBlocks[3]);
    expect(Number(one.blocks.last.number)).to.equal((tradeBlocks[3] ?? 0) - 1);
    expect(one.sources[0].logs).to.be.greaterThan(0);
    expect(one.output.addresses).to.equal(
      expectedPerp(WINDOWS.get(1n) as { start: bigint; end: bigint }).size,
    );
  });

  it("hands stage 3 to the policy that starts there (balances from every Transfer before the window), live until both clocks pass its end", async () => {
    const { out, data } = await dirs();
    let result = await compute(3, out, data);
    expect(result.code, result.output).to.equal(0);
    expect(existsSync(path.join(out, "stage-3.final.csv"))).to.equal(false);
    const live = parseScoreCsv(
      await readFile(path.join(out, "stage-3.csv"), "utf8"),
    );
    // The base chain is at T0 + 2550: stage 3 is open there, so the file is
    // live, though the rollup has passed the end (its last block decides the
    // logs: A's transfer at T0 + 3150 is not in).
    expect(live.get(A.toLowerCase())).to.equal(40n);
    expect(live.get(B.toLowerCase())).to.equal(25n);
    expect(live.get(C.toLowerCase())).to.equal(7n);
    baseChain.state.now = T0 + 3200n;
    result = await compute(3, out, data);
    expect(result.code, result.output).to.equal(0);
    const final = parseScoreCsv(
      await readFile(path.join(out, "stage-3.final.csv"), "utf8"),
    );
    // At stage 3's last block (before T0 + 3000) A's last transfer (T0 + 3150) had not happened.
    expect(final.get(A.toLowerCase())).to.equal(40n);
    expect(final.get(C.toLowerCase())).to.equal(7n);
    expect(final.get(DEPLOYER.toLowerCase())).to.equal(
      SUPPLY / E18 - 40n - 25n - 7n,
    );
    const manifest = JSON.parse(
      await readFile(path.join(out, "stage-3.manifest.json"), "utf8"),
    );
    expect(manifest.policy.name).to.equal("holders");
    expect(manifest.final).to.equal(true);
  });

  it("gives byte-identical CSV and manifest in two fresh projects", async () => {
    const first = await dirs();
    const second = await dirs();
    for (const d of [first, second]) {
      const result = await compute(2, d.out, d.data);
      expect(result.code, result.output).to.equal(0);
    }
    for (const name of ["stage-2.final.csv", "stage-2.manifest.json"])
      expect(await readFile(path.join(first.out, name), "utf8")).to.equal(
        await readFile(path.join(second.out, name), "utf8"),
      );
  });

  it("gives the same CSV and manifest whether the digest goes on from the index's states or hashes every row, and rebuilds the same states", async () => {
    const { out, data } = await dirs();
    const file = path.join(data, `chain-${node.chainId}.duckdb`);
    const outputs = async (dir: string) => {
      const read: string[] = [];
      for (const stage of [2, 3]) {
        const result = await compute(stage, dir, data);
        expect(result.code, result.output).to.equal(0);
        const live = stage === 3 ? "" : ".final";
        for (const name of [
          `stage-${stage}${live}.csv`,
          `stage-${stage}.manifest.json`,
        ])
          read.push(await readFile(path.join(dir, name), "utf8"));
      }
      return read;
    };
    const states = () =>
      queryIndex(
        file,
        "select source_id, max(through_block)::VARCHAR, arg_max(logs, through_block)::VARCHAR, " +
          "arg_max(state, through_block) from digest_states group by source_id order by all",
      );
    const withStates = await outputs(out);
    const kept = await states();
    expect(kept.length).to.be.greaterThan(0);
    // An index as the version before states were kept left it: its next
    // computations hash every row once and end on the same state per source
    // (stage 3's digest goes on from the state stage 2's kept).
    await changeIndex(file, "drop table digest_states");
    expect(await outputs(`${out}-every-row`)).to.deep.equal(withStates);
    expect(await states()).to.deep.equal(kept);
  });

  describe("refusals, each naming the file and line or the address and stage, with nothing written", () => {
    /**
     * Runs `policy`, asserting it is refused with the error `expected`, whose
     * message (its lines) names what `names` matches, and nothing written.
     */
    const refused = async (
      policy: string,
      expected: ErrorDescriptor,
      names: RegExp,
    ) => {
      const file = path.join(
        work,
        `bad-${Math.random().toString(16).slice(2)}.sql`,
      );
      await writeFile(file, policy);
      const { out, data } = await dirs();
      const result = await compute(1, out, data, file);
      failure(result, expected);
      // A message of several lines: its values are in the lines after the
      // first.
      expect(result.output, result.output).to.match(names);
      expect(existsSync(out)).to.equal(false);
    };
    const header = () => PERP(tradeLog).split("\n").slice(0, 3).join("\n");

    // What a challenger meets in someone else's policy, run as the command
    // runs it: refused with exit 1 and a message, never a crash (exit 134
    // was DuckDB's abort), nothing printed raw, nothing written.
    const HOSTILE: [string, string[]][] = [
      ["effect-enable-logging.sql", []],
      ["endless-recursive-cte.sql", ["--policy-timeout", "2"]],
      ["memory-hungry.sql", ["--policy-memory", "64"]],
      ["control-fake-line.sql", []],
      ["leak-databases.sql", []],
    ];
    for (const [name, bounds] of HOSTILE)
      it(`a hostile policy, ${name}: exit 1, its refusal printed safe, nothing written`, async () => {
        const corpus = await readFile(
          path.join(PROJECT_ROOT, "test", "corpus", "hostile-policies", name),
          "utf8",
        );
        // The error the corpus expects (`CATEGORY.NAME`), and the values its
        // message must name.
        const comment = (key: string) =>
          new RegExp(`^-- ${key}: (.*)$`, "m").exec(corpus)?.[1] ?? "(none)";
        const expected = comment("error").split("|").map(catalogEntry);
        const file = path.join(work, `hostile-${name}`);
        await writeFile(file, corpus.replace(/0x5fbdb\w{35}/i, tradeLog));
        const { out, data } = await dirs();
        const result = await compute(1, out, data, file, node.url, bounds);
        expect(result.code, result.output).to.equal(1);
        expect(expected.map(errorCode)).to.include(failureCode(result));
        expect(result.output, result.output).to.match(
          new RegExp(
            // The corpus names its own file and (first) stage 7; here, stage 1.
            comment("names")
              .replace(/hostile\\\.sql/g, "hostile-[\\w.-]+\\.sql")
              .replace("stage 7", "stage 1"),
          ),
        );
        // eslint-disable-next-line no-control-regex -- none may get through
        expect(result.output).to.not.match(/\u001b/);
        expect(existsSync(out)).to.equal(false);
        expect(existsSync(path.join(data, "tmp"))).to.equal(false);
      });

    it("floating point anywhere in the plan: the expression's line and the exact alternative", async () => {
      await refused(
        PERP(tradeLog).replace("// (5 *", "/ (5 *"),
        ERRORS.SCORING.ADMISSION.POLICY_FLOATING,
        /bad-\w+\.sql:4:\d+: \/ \(5 \*/,
      );
      await refused(
        `${header()}\nselect trader as address, sum(notional::UHUGEINT) // 1 as score\nfrom trades group by trader\n`,
        ERRORS.SCORING.ADMISSION.POLICY_FLOATING,
        /bad-\w+\.sql:4:\d+: sum\(notional::UHUGEINT\)/,
      );
    });

    it("an unknown column or table, a bad source line, an unknown header: file and line", async () => {
      await refused(
        `${header()}\nselect trader as address,\n  sum(volume) as score from trades group by trader\n`,
        ERRORS.SCORING.ADMISSION.POLICY_SQL_ERROR,
        /bad-\w+\.sql:5: [\s\S]*\bvolume\b/,
      );
      await refused(
        `${header()}\nselect trader as address, 1 as score from swaps\n`,
        ERRORS.SCORING.ADMISSION.POLICY_REFUSED,
        /bad-\w+\.sql:4:\d+: swaps\n/,
      );
      await refused(
        `-- @policy x\n-- @from-stage 1\n-- @source trades 0x12 event Trade(address trader)\nselect 1\n`,
        ERRORS.SCORING.POLICY_FILES.POLICY_HEADER,
        /bad-\w+\.sql:3: .*"0x12"/,
      );
      await refused(
        `-- @policy x\n-- @from-stage 1\n-- @source trades ${tradeLog} event Trade(address trader, uint256)\nselect 1\n`,
        ERRORS.SCORING.POLICY_FILES.POLICY_HEADER,
        /bad-\w+\.sql:3: /,
      );
      await refused(
        `-- @policy x\n-- @from-stage 1\n-- @frm-stage 2\n`,
        ERRORS.SCORING.POLICY_FILES.POLICY_HEADER,
        /bad-\w+\.sql:3: .*@frm-stage/,
      );
    });

    it("a negative score, one above 2^64 - 1, an address that is not one, an address twice: that address and the stage", async () => {
      await refused(
        `${header()}\nselect trader as address, -1 as score from trades group by trader\n`,
        ERRORS.SCORING.RESULTS.SCORES_INVALID,
        /stage 1: 0x1000000000000000000000000000000000000001: .*-1\b/,
      );
      await refused(
        `${header()}\nselect trader as address, 18446744073709551616 as score from trades group by trader\n`,
        ERRORS.SCORING.RESULTS.SCORES_INVALID,
        /stage 1: 0x\w{40}: .*\b18446744073709551616\b/,
      );
      await refused(
        `${header()}\nselect 'trader-' || trader as address, 1 as score from trades group by trader\n`,
        ERRORS.SCORING.RESULTS.SCORES_INVALID,
        /stage 1: trader-0x\w+: /,
      );
      await refused(
        `${header()}\nselect trader as address, 1 as score from trades\n`,
        ERRORS.SCORING.RESULTS.SCORES_INVALID,
        /stage 1: 0x\w{40}: /,
      );
    });

    it("floors a DECIMAL score", async () => {
      const file = path.join(work, "decimal.sql");
      await writeFile(
        file,
        `${header()}\nselect trader as address, (count(*) * 10 + 7)::DECIMAL(18,0) / 4::DECIMAL(18,0) * 1::DECIMAL(18,2) as score\nfrom trades, stage where block_time >= stage.start_time and block_time < stage.end_time group by trader\n`,
      );
      const { out, data } = await dirs();
      const result = await compute(1, out, data, file);
      // DECIMAL / DECIMAL is DOUBLE in DuckDB: refused, like every float.
      failure(result, ERRORS.SCORING.ADMISSION.POLICY_FLOATING);
      await writeFile(
        file,
        `${header()}\nselect trader as address, (count(*) * 10 + 7)::DECIMAL(18,0) * 0.25 as score\nfrom trades, stage where block_time >= stage.start_time and block_time < stage.end_time group by trader\n`,
      );
      const ok = await compute(1, out, data, file);
      expect(ok.code, ok.output).to.equal(0);
      const scores = parseScoreCsv(
        await readFile(path.join(out, "stage-1.final.csv"), "utf8"),
      );
      // A: 2 trades in stage 1 → 27 × 0.25 = 6.75 → 6; B: 2 trades → 6.
      expect(scores.get(A.toLowerCase())).to.equal(6n);
    });
  });

  describe("a node like minievm", () => {
    let proxy: MinievmProxy;
    beforeEach(async () => {
      proxy = await startMinievmProxy(node.url);
    });
    afterEach(async () => proxy.close());

    it("narrows the range to what the node allows, and gets the same CSV", async () => {
      const reference = await dirs();
      expect((await compute(2, reference.out, reference.data)).code).to.equal(
        0,
      );
      proxy.rules.maxRange = 3;
      const limited = await dirs();
      const result = await compute(
        2,
        limited.out,
        limited.data,
        policies,
        proxy.url,
      );
      expect(result.code, result.output).to.equal(0);
      expect(proxy.rangeRefusals).to.be.greaterThan(0);
      // The headers of the blocks with logs, and of each range's ends, come in
      // batches (single requests are the stage's boundary search).
      expect(proxy.headerRequests.batched).to.be.greaterThan(0);
      expect(
        await readFile(path.join(limited.out, "stage-2.final.csv"), "utf8"),
      ).to.equal(
        await readFile(path.join(reference.out, "stage-2.final.csv"), "utf8"),
      );
    });

    it("refuses a pruned node, naming the block, instead of taking its short answer as no logs", async () => {
      proxy.rules.prunedBelow = 3;
      const { out, data } = await dirs();
      const result = await compute(2, out, data, policies, proxy.url);
      expect(failure(result, ERRORS.INDEXER.NODE.BLOCK_NOT_ON_NODE)).to.include(
        "block 1 ",
      );
      expect(existsSync(out)).to.equal(false);
    });

    it("through 8% faults and a kill during scores:index, ends with the CSV of an undisturbed run", async () => {
      // Many small ranges, so the kill lands mid-index.
      await provider.send("hardhat_mine", ["0x7d0"]);
      const reference = await dirs();
      expect((await compute(2, reference.out, reference.data)).code).to.equal(
        0,
      );
      proxy.rules.maxRange = 20;
      proxy.rules.faultRate = 0.08;
      proxy.rules.logsDelayMs = 100;
      const disturbed = await dirs();
      const { child, result: killed } = spawnHardhat(
        [
          "scores:index",
          "--network",
          "rollup",
          "--policy",
          policies,
          "--data-dir",
          disturbed.data,
        ],
        env(proxy.url),
      );
      // Killed once it has asked for 70 ranges: each answered 100 ms after
      // it is asked, LOGS_IN_FLIGHT at once (a third for a moment after a
      // refusal), so it has indexed for over 3 s (past its first commit,
      // every 2 s), and it is still going (its blocks take over 100 ranges
      // of 20).
      let exited = false;
      void killed.then(() => (exited = true));
      while (!exited && proxy.logFilters.length < 70)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(exited, "scores:index ended before it could be killed").to.equal(
        false,
      );
      child.kill("SIGKILL");
      const cut = await killed;
      expect(cut.output).to.not.match(/^indexed /m);
      proxy.rules.logsDelayMs = 0;
      const result = await compute(
        2,
        disturbed.out,
        disturbed.data,
        policies,
        proxy.url,
      );
      expect(result.code, result.output).to.equal(0);
      expect(proxy.faults).to.be.greaterThan(0);
      for (const name of ["stage-2.final.csv", "stage-2.manifest.json"])
        expect(await readFile(path.join(disturbed.out, name), "utf8")).to.equal(
          await readFile(path.join(reference.out, name), "utf8"),
        );
    });
  });

  it("scores:audit passes on the contract that holds the policy's scores and names the one score changed", async () => {
    const score = await deployVipScore(provider, 1n);
    const contract = await score.getAddress();
    const expected = expectedPerp(
      WINDOWS.get(1n) as { start: bigint; end: bigint },
    );
    await (
      await score.updateScores(1n, [...expected.keys()], [...expected.values()])
    ).wait();
    const audit = () =>
      runHardhat(
        [
          "scores:audit",
          "--network",
          "rollup",
          "--policy",
          policies,
          "--stage",
          "1",
          "--contract",
          contract,
          "--data-dir",
          path.join(work, "audit-data"),
        ],
        env(),
      );
    let result = await audit();
    expect(result.code, result.output).to.equal(0);
    expect(result.output).to.match(/holds exactly the policy's 2 scores/);
    const changed = (expected.get(A.toLowerCase()) ?? 0n) + 1n;
    await (await score.updateScores(1n, [A], [changed])).wait();
    result = await audit();
    expect(result.code).to.equal(1);
    expect(result.output).to.include(
      `${A.toLowerCase()}: policy ${expected.get(A.toLowerCase())}, contract ${changed}`,
    );
    expect(
      failure(result, ERRORS.SCORING.RESULTS.AUDIT_DIFFERENCES),
    ).to.include("stage 1: 1 ");
  });

  it("indexes again from the last block that still matches when stored blocks were replaced (a reorganization)", async () => {
    const data = path.join(work, "reorg-data");
    const index = () =>
      runHardhat(
        [
          "scores:index",
          "--network",
          "rollup",
          "--policy",
          path.join(work, "perp.sql"),
          "--data-dir",
          data,
        ],
        env(),
      );
    const wallet = new Wallet(DEPLOYER_KEY, provider);
    const trades = TradeLog__factory.connect(tradeLog, wallet);
    const snapshot = (await provider.send("evm_snapshot", [])) as string;
    const forkedAt = await provider.getBlockNumber();
    for (const notional of [111n, 222n])
      await (await trades.trade([A], [notional], [1])).wait();
    let result = await index();
    expect(result.code, result.output).to.equal(0);
    // The chain drops those blocks and makes others at the same heights.
    await provider.send("evm_revert", [snapshot]);
    for (const notional of [333n, 444n, 555n])
      await (await trades.trade([B], [notional], [2])).wait();
    result = await index();
    expect(result.code, result.output).to.equal(0);
    // Indexed again from the last stored block that still matches, at or
    // before the fork.
    const rewound =
      /the node replaced blocks after (\d+) \(a reorganization\): they were indexed again/.exec(
        result.output,
      );
    expect(rewound, result.output).to.not.equal(null);
    expect(Number(rewound?.[1])).to.be.at.most(forkedAt);
    const file = path.join(data, `chain-${node.chainId}.duckdb`);
    const id = await onlySourceId(file);
    const rows = await queryIndex(
      file,
      `select trader, notional::VARCHAR from log_${id} where block_number > ${forkedAt} order by block_number`,
    );
    expect(rows).to.deep.equal([
      [B.toLowerCase(), "333"],
      [B.toLowerCase(), "444"],
      [B.toLowerCase(), "555"],
    ]);
  });
});
