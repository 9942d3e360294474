import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { type JsonRpcProvider, Wallet } from "ethers";

import { ERRORS } from "../../tasks/error-catalog.js";
import { startL1RestStandIn } from "../../tasks/stand-ins/l1-rest.js";
import {
  startServer,
  type StandInServer,
} from "../../tasks/stand-ins/server.js";
import { TradeLog__factory } from "../../types/ethers-contracts/index.js";
import { failure } from "../helpers/failure.js";
import { startFaultProxy, type FaultProxy } from "../helpers/fault-proxy.js";
import { runHardhat } from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER_KEY } from "../helpers/keys.js";
import { directProvider } from "../helpers/rig.js";
import { parseScoreCsv } from "../helpers/score-csv.js";

// A window of the operator's choosing, before the rollup is in any program.
const T0 = 1_960_000_000n;
const START = T0;
const END = T0 + 1000n;
const E18 = 10n ** 18n;
const A = "0x1000000000000000000000000000000000000001";
const B = "0x2000000000000000000000000000000000000002";
const C = "0x3000000000000000000000000000000000000003";

/** One block per entry, at its time: one before the window, one on each boundary. */
const TRADES: { time: bigint; trades: [string, bigint, bigint][] }[] = [
  { time: T0 - 100n, trades: [[A, 9n * E18, 3n]] },
  {
    time: T0,
    trades: [
      [A, 2n * E18, 5n],
      [B, E18 + 7n, 2n],
    ],
  },
  { time: T0 + 400n, trades: [[C, 3n * E18, 50n]] },
  { time: T0 + 999n, trades: [[A, E18 / 2n, 1n]] },
  { time: T0 + 1000n, trades: [[B, 100n * E18, 9n]] },
  { time: T0 + 1500n, trades: [[C, E18, 1n]] },
];

const POLICY = (trades: string) => `-- @policy perp-volume
-- @from-stage 1
-- @source trades ${trades} event Trade(address indexed trader, uint256 notional, uint16 leverage)
select trader as address, sum(notional * (leverage + 4)) // 1000000000000000 as score
from trades, stage
where block_time >= stage.start_time and block_time < stage.end_time
group by trader
`;

/** The policy's words: notional × (leverage + 4), summed over the window's trades, in 10^-15 units, floored. */
function expected(start: bigint, end: bigint): Map<string, bigint> {
  const sums = new Map<string, bigint>();
  for (const block of TRADES)
    if (block.time >= start && block.time < end)
      for (const [trader, notional, leverage] of block.trades)
        sums.set(trader, (sums.get(trader) ?? 0n) + notional * (leverage + 4n));
  return new Map([...sums].map(([a, s]) => [a, s / 10n ** 15n]));
}

describe("a policy tried on a window of one's choosing, checked before anything is read", function () {
  let node: HardhatNode;
  let provider: JsonRpcProvider;
  let proxy: FaultProxy;
  /** Stands where the base chain would be: it must never be asked. */
  let baseChain: StandInServer;
  let baseChainAsked = 0;
  let work: string;
  let policy: string;
  let tradeLog: string;

  before(async () => {
    node = await startHardhatNode();
    provider = directProvider(node);
    const wallet = new Wallet(DEPLOYER_KEY, provider);
    await provider.send("evm_setNextBlockTimestamp", [Number(T0 - 1000n)]);
    const trades = await new TradeLog__factory(wallet).deploy();
    await trades.waitForDeployment();
    tradeLog = (await trades.getAddress()).toLowerCase();
    for (const block of TRADES) {
      await provider.send("evm_setNextBlockTimestamp", [Number(block.time)]);
      const tx = await trades.trade(
        block.trades.map((t) => t[0]),
        block.trades.map((t) => t[1]),
        block.trades.map((t) => t[2]),
      );
      await tx.wait();
    }
    proxy = await startFaultProxy(node.url);
    baseChain = await startServer(() => {
      baseChainAsked++;
      return { status: 500, body: "the base chain is not to be asked" };
    });
    work = await mkdtemp(path.join(tmpdir(), "vip-trial-"));
    policy = path.join(work, "perp.sql");
    await writeFile(policy, POLICY(tradeLog));
  });
  after(async () => {
    await proxy.close();
    await baseChain.close();
    await node.close();
    await rm(work, { recursive: true, force: true });
  });

  const env = () => ({ JSON_RPC_URL: proxy.url, L1_REST_URL: baseChain.url });
  const scoring = (task: string, args: string[], data = "data") =>
    runHardhat(
      [
        task,
        "--network",
        "rollup",
        "--data-dir",
        path.join(work, data),
        ...args,
      ],
      env(),
    );
  const nodeRequests = () =>
    Object.values(proxy.seen).reduce((sum, n) => sum + n, 0);

  it("computes a trial window with no base chain, exactly, into a file that says it is a trial", async () => {
    const out = path.join(work, "trial");
    const result = await scoring("scores:compute", [
      "--policy",
      policy,
      "--window",
      `${START},${END}`,
      "--out",
      out,
    ]);
    expect(result.code, result.output).to.equal(0);
    expect(result.stdout).to.match(
      /^window\s+window 2032-02-10T\S+ to \S+ \(a trial: the base chain is not asked\); rollup blocks/m,
    );
    expect(result.stdout).to.match(
      /^trial\s+scores of a window of your choosing: never pushed nor finalized/m,
    );
    const base = `window-${START}-${END}`;
    const csv = await readFile(path.join(out, `${base}.csv`), "utf8");
    expect(parseScoreCsv(csv)).to.deep.equal(expected(START, END));
    const manifest = JSON.parse(
      await readFile(path.join(out, `${base}.manifest.json`), "utf8"),
    ) as Record<string, unknown>;
    expect(manifest).to.include({ stage: null, trial: true, final: false });
    expect(manifest.window).to.deep.equal({
      start: START.toString(),
      end: END.toString(),
    });
    expect(existsSync(path.join(out, "stage-null.csv"))).to.equal(false);
    // The policy it ran, beside it under the manifest's name: the set is whole.
    const policyCopy = await readFile(path.join(out, "perp.sql"));
    expect(createHash("sha256").update(policyCopy).digest("hex")).to.equal(
      (manifest.policy as { sha256: string }).sha256,
    );
    expect(baseChainAsked).to.equal(0);

    // The same window in ISO 8601, as its stage number 4: the same scores.
    const iso = (t: bigint) => new Date(Number(t) * 1000).toISOString();
    const again = await scoring("scores:compute", [
      "--policy",
      policy,
      "--window",
      `${iso(START)},${iso(END)}`,
      "--stage-number",
      "4",
      "--out",
      path.join(work, "trial-4"),
    ]);
    expect(again.code, again.output).to.equal(0);
    expect(
      await readFile(path.join(work, "trial-4", `${base}.csv`), "utf8"),
    ).to.equal(csv);
    const numbered = JSON.parse(
      await readFile(
        path.join(work, "trial-4", `${base}.manifest.json`),
        "utf8",
      ),
    ) as Record<string, unknown>;
    expect(numbered).to.include({ stage: "4", trial: true });
    expect(baseChainAsked).to.equal(0);
  });

  it("never pushes a trial's file, even renamed as a stage's, and sends nothing", async () => {
    const out = path.join(work, "trial");
    const trialCsv = path.join(out, `window-${START}-${END}.csv`);
    const renamed = path.join(out, "stage-1.final.csv");
    await copyFile(trialCsv, renamed);
    const before = await provider.getBlockNumber();
    for (const [file, why] of [
      [trialCsv, /its name is a trial's/],
      [renamed, /window-\d+-\d+\.manifest\.json describes it as a trial/],
    ] as const) {
      const result = await runHardhat(
        [
          "scores:update",
          "--network",
          "rollup",
          "--stage",
          "1",
          "--file",
          file,
        ],
        { ...env(), PRIVATE_KEY: DEPLOYER_KEY },
      );
      expect(
        failure(result, ERRORS.SCORING.RESULTS.TRIAL_FILE_REFUSED),
      ).to.match(why);
    }
    expect(await provider.getBlockNumber()).to.equal(before);
    await rm(renamed);
  });

  it("explains one address over the trial window, and audits it against its manifest", async () => {
    const explained = await scoring("scores:explain", [
      "--policy",
      policy,
      "--window",
      `${START},${END}`,
      "--address",
      A,
    ]);
    expect(explained.code, explained.output).to.equal(0);
    expect(explained.stdout).to.match(
      /^window\s+window \S+ to \S+ \(a trial\), rollup blocks/m,
    );
    expect(explained.stdout).to.match(
      new RegExp(`^score\\s+${expected(START, END).get(A)}$`, "m"),
    );
    expect(explained.stdout).to.match(
      /^on chain\s+not asked: a trial window is no stage/m,
    );

    const manifest = path.join(
      work,
      "trial",
      `window-${START}-${END}.manifest.json`,
    );
    const nothing = await scoring("scores:audit", [
      "--policy",
      policy,
      "--window",
      `${START},${END}`,
    ]);
    failure(nothing, ERRORS.SCORING.RESULTS.AUDIT_NOTHING_TO_COMPARE);
    const audited = await scoring("scores:audit", [
      "--policy",
      policy,
      "--window",
      `${START},${END}`,
      "--manifest",
      manifest,
    ]);
    expect(audited.code, audited.output).to.equal(0);
    expect(audited.stdout).to.match(
      /^audit\s+window \S+ to \S+: the manifest matches the policy's 3 scores$/m,
    );
    const tampered = JSON.parse(await readFile(manifest, "utf8")) as {
      output: { total: string };
    };
    tampered.output.total = "1";
    const tamperedFile = path.join(work, "tampered.manifest.json");
    await writeFile(tamperedFile, JSON.stringify(tampered));
    const differs = await scoring("scores:audit", [
      "--policy",
      policy,
      "--window",
      `${START},${END}`,
      "--manifest",
      tamperedFile,
    ]);
    expect(failure(differs, ERRORS.SCORING.RESULTS.AUDIT_DIFFERENCES)).to.match(
      /window \S+ to \S+: 1 difference\(s\) between the policy's scores and the manifest/,
    );
    expect(baseChainAsked).to.equal(0);
  });

  it("refuses a policy that cannot run before any request to the node or the base chain", async () => {
    const cases: [string, string, RegExp][] = [
      [
        "syntax.sql",
        POLICY(tradeLog).replace("group by trader", "group trader"),
        /VIP-E5012: .*syntax\.sql:7: Parser Error: syntax error at or near "trader"/,
      ],
      [
        "float.sql",
        POLICY(tradeLog).replace("// 1000000000000000", "/ 1000000000000000"),
        /VIP-E5016: .*float\.sql.*floating point[\s\S]*float\.sql:4:\d+: \/ 1000000000000000/,
      ],
      [
        "header.sql",
        POLICY(tradeLog).replace("uint16 leverage", "uint16"),
        /VIP-E5003: .*header\.sql:3: every parameter needs a name/,
      ],
      [
        "forbidden.sql",
        POLICY(tradeLog).replace(
          "from trades, stage",
          "from trades, stage, read_csv('/etc/passwd')",
        ),
        /VIP-E5017: [\s\S]*forbidden\.sql:5:21: read_csv/,
      ],
    ];
    for (const [name, text, words] of cases) {
      const file = path.join(work, name);
      await writeFile(file, text);
      const seen = nodeRequests();
      const result = await scoring(
        "scores:compute",
        [
          "--policy",
          file,
          "--window",
          `${START},${END}`,
          "--out",
          path.join(work, "never"),
        ],
        "data-broken",
      );
      expect(result.code, result.output).to.not.equal(0);
      expect(result.output).to.match(words);
      expect(nodeRequests(), `${name}: requests to the node`).to.equal(seen);
      expect(existsSync(path.join(work, "never"))).to.equal(false);
      expect(existsSync(path.join(work, "data-broken"))).to.equal(false);
    }
    expect(baseChainAsked).to.equal(0);
  });

  it("scores:check admits a folder of policies with no network, and names each one it refuses", async () => {
    const folder = path.join(work, "repo");
    const { mkdir } = await import("node:fs/promises");
    await mkdir(folder);
    await writeFile(path.join(folder, "1-perp.sql"), POLICY(tradeLog));
    await writeFile(
      path.join(folder, "5-holders.sql"),
      `-- @policy holders\n-- @from-stage 5\n-- @source transfers ${tradeLog} event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)\n` +
        `select "to" as address, count(*) as score from transfers group by "to"\n`,
    );
    const good = await runHardhat(["scores:check", "--policy", folder]);
    expect(good.code, good.output).to.equal(0);
    expect(good.stdout).to.match(/^policy\s+perp-volume \(.*1-perp\.sql\)$/m);
    expect(good.stdout).to.match(/^stages\s+1 to 4$/m);
    expect(good.stdout).to.match(/^stages\s+5 onwards$/m);
    expect(good.stdout).to.match(
      /^\s+reads block_number BIGINT, block_time BIGINT, tx_hash VARCHAR, tx_index INTEGER, log_index INTEGER, "from" VARCHAR, "to" VARCHAR, tokenId HUGEINT$/m,
    );
    expect(good.stdout).to.match(/^admitted\s+runs once \(duckdb v1\./m);

    await writeFile(
      path.join(folder, "9-broken.sql"),
      POLICY(tradeLog)
        .replace("@from-stage 1", "@from-stage 9")
        .replace("// 1000", "/ 1000"),
    );
    const bad = await runHardhat(["scores:check", "--policy", folder]);
    expect(failure(bad, ERRORS.SCORING.RESULTS.POLICIES_REFUSED)).to.match(
      /1 of 3 policies cannot run/,
    );
    expect(bad.stdout).to.match(/^refused {2}.*9-broken\.sql: VIP-E5016: /m);
    expect(bad.stdout).to.match(/^policy\s+holders/m);
  });

  it("says which clock a live stage waits for, and until when", async () => {
    const l1 = await startL1RestStandIn({
      stage: 1n,
      stageStartTime: T0,
      stageEndTime: T0 + 100_000n,
      stageInterval: 100_000n,
      stageData: new Map(),
      now: T0 + 2_000n,
    });
    try {
      const result = await runHardhat(
        [
          "scores:compute",
          "--network",
          "rollup",
          "--data-dir",
          path.join(work, "data"),
          "--policy",
          policy,
          "--stage",
          "1",
          "--out",
          path.join(work, "live"),
        ],
        { JSON_RPC_URL: node.url, L1_REST_URL: l1.url },
      );
      expect(result.code, result.output).to.equal(0);
      expect(result.stdout).to.match(
        /^open\s+the base chain's time is 2032-02-10T\S+, before the end 2032-02-11T\S+; the rollup's last block \(\d+\) is at 2032-02-10T\S+, before the end 2032-02-11T\S+: the window closes on the rollup at its first block at or after it$/m,
      );
      expect(result.stdout).to.match(/^scores\s+.*, live$/m);
    } finally {
      await l1.close();
    }
  });

  it("refuses a missing JSON_RPC_URL with a VIP code saying what it is", async () => {
    const result = await runHardhat(
      [
        "scores:compute",
        "--network",
        "rollup",
        "--policy",
        policy,
        "--window",
        "last-1d",
        "--out",
        path.join(work, "none"),
      ],
      { L1_REST_URL: baseChain.url },
    );
    expect(
      failure(result, ERRORS.CONFIG.SETTINGS.NETWORK_URL_NOT_SET),
    ).to.match(
      /network "rollup" needs JSON_RPC_URL, the rollup's EVM JSON-RPC endpoint .*npx hardhat keystore set JSON_RPC_URL/,
    );
    expect(existsSync(path.join(work, "none"))).to.equal(false);
  });
});
