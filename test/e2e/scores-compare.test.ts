import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { expect } from "chai";
import { getAddress, Wallet } from "ethers";
import { type Browser, chromium } from "playwright-core";

import { ERRORS } from "../../tasks/error-catalog.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import { TradeLog__factory } from "../../types/ethers-contracts/index.js";
import { failure } from "../helpers/failure.js";
import { startFaultProxy, type FaultProxy } from "../helpers/fault-proxy.js";
import { type CliResult, runHardhat } from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER_KEY } from "../helpers/keys.js";
import { directProvider } from "../helpers/rig.js";

const T0 = 1_970_000_000n;
const STAGES = new Map<bigint, { start: bigint; end: bigint }>([
  [1n, { start: T0, end: T0 + 1000n }],
  [2n, { start: T0 + 1000n, end: T0 + 2000n }],
]);
const E18 = 10n ** 18n;
const CHROMIUM = "/usr/bin/chromium";

const [A, B, C, D, E, G, H] = [1, 2, 3, 4, 5, 7, 8].map(
  (n) => `0x${String(n).repeat(40)}`,
) as [string, string, string, string, string, string, string];

/** One block per entry, at its time; a block may hold several trades. */
const TRADES: { time: bigint; trades: [string, bigint, bigint][] }[] = [
  { time: T0 + 10n, trades: [[A, 3n * E18, 2n]] },
  {
    time: T0 + 500n,
    trades: [
      [B, E18, 9n],
      [C, E18, 0n],
    ],
  },
  {
    time: T0 + 1100n,
    trades: [
      [A, 5n * E18, 10n],
      [A, E18, 2n],
      [B, 2n * E18, 5n],
    ],
  },
  // H scores 4 + 3 = 7 now and 3 proposed: ⌊7 / 2⌋ = 3, vesting's
  // minimum exactly, so not below it (3 < 3.5 would have said it is).
  {
    time: T0 + 1200n,
    trades: [
      [H, (2n * E18) / 10n, 16n],
      [H, (3n * E18) / 10n, 6n],
    ],
  },
  {
    time: T0 + 1500n,
    trades: [
      [C, 4n * E18, 1n],
      [D, 3n * E18, 20n],
    ],
  },
  {
    time: T0 + 1999n,
    trades: [
      [E, (15n * E18) / 100n, 1n],
      [G, 2n * E18, 6n],
    ],
  },
  { time: T0 + 2000n, trades: [[A, 9n * E18, 1n]] },
];

const CURRENT = (trades: string) => `-- @policy leveraged-volume
-- @from-stage 1
-- @source trades ${trades} event Trade(address indexed trader, uint256 notional, uint16 leverage)
select trader as address, sum(notional * (leverage + 4)) // 1000000000000000000 as score
from trades, stage
where block_time >= stage.start_time and block_time < stage.end_time
group by trader
`;

const PROPOSED = (trades: string) => `-- @policy capped-volume
-- @from-stage 5
-- @source trades ${trades} event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- Trades above 6x no longer count. A note that must stay text: </script><b>bold</b>
select trader as address, sum(notional * 10) // 1000000000000000000 as score
from trades, stage
where block_time >= stage.start_time and block_time < stage.end_time and leverage <= 6
group by trader
`;

type Scores = Map<string, bigint>;

/** Every trade in `[start, end)` summed per trader with `weight`, then floored from 18 decimals. */
function scored(
  start: bigint,
  end: bigint,
  weight: (notional: bigint, leverage: bigint) => bigint | undefined,
): Scores {
  const sums: Scores = new Map();
  for (const block of TRADES)
    if (block.time >= start && block.time < end)
      for (const [trader, notional, leverage] of block.trades) {
        const weighted = weight(notional, leverage);
        if (weighted !== undefined)
          sums.set(trader, (sums.get(trader) ?? 0n) + weighted);
      }
  return new Map([...sums].map(([a, s]) => [a, s / E18]));
}

/** The current policy in words: notional × (leverage + 4). */
const current = (start: bigint, end: bigint): Scores =>
  scored(start, end, (n, l) => n * (l + 4n));
/** The proposed one: notional × 10, trades of at most 6x only. */
const proposed = (start: bigint, end: bigint): Scores =>
  scored(start, end, (n, l) => (l <= 6n ? n * 10n : undefined));

/**
 * What the command must print, from the two maps: an address is scored
 * above 0; vesting's minimum is vesting.move's
 * `mul_by_u64_truncate(minimum_score_ratio, l2_score)`, the current score
 * × 5 / 10 truncated, and a user falls below it when the proposed score is
 * less (at the minimum a user vests in full).
 */
function expectedSummary(before: Scores, after: Scores) {
  const all = new Set([...before.keys(), ...after.keys()]);
  const counts = { gained: 0, lost: 0, changed: 0, unchanged: 0, unscored: 0 };
  let scoredNow = 0;
  let belowMinimum = 0;
  for (const address of all) {
    const b = before.get(address) ?? 0n;
    const f = after.get(address) ?? 0n;
    if (b > 0n && f > 0n) counts[b === f ? "unchanged" : "changed"]++;
    else if (b > 0n) counts.lost++;
    else if (f > 0n) counts.gained++;
    else counts.unscored++;
    if (b > 0n) scoredNow++;
    if (b > 0n && f < (b * 5n) / 10n) belowMinimum++;
  }
  const sum = (m: Scores) => [...m.values()].reduce((s, v) => s + v, 0n);
  return {
    all: all.size,
    counts,
    scoredNow,
    belowMinimum,
    totals: [sum(before), sum(after)],
  };
}

function summaryLines(expected: ReturnType<typeof expectedSummary>): RegExp[] {
  const { counts } = expected;
  const [before, after] = expected.totals as [bigint, bigint];
  return [
    new RegExp(
      `^addresses\\s+${expected.all} named by either policy: ${counts.gained} gained, ` +
        `${counts.lost} lost, ${counts.changed} changed, ${counts.unchanged} unchanged` +
        (counts.unscored === 0
          ? "$"
          : `, ${counts.unscored} scored 0 by both$`),
      "m",
    ),
    new RegExp(
      `^total\\s+${before} → ${after} \\(${after >= before ? "\\+" : "-"}${after >= before ? after - before : before - after}\\)$`,
      "m",
    ),
    new RegExp(
      `^vesting\\s+${expected.belowMinimum} of ${expected.scoredNow} users scored now would score below vesting's minimum, ⌊current score × 0\\.5⌋`,
      "m",
    ),
  ];
}

describe("scores:compare on hardhat node: two policies over the same blocks", function () {
  let node: HardhatNode;
  let proxy: FaultProxy;
  let baseChain: L1RestStandIn;
  let work: string;
  let currentFile: string;
  let proposedFile: string;

  before(async () => {
    node = await startHardhatNode();
    const provider = directProvider(node);
    const wallet = new Wallet(DEPLOYER_KEY, provider);
    await provider.send("evm_setNextBlockTimestamp", [Number(T0 - 100n)]);
    const log = await new TradeLog__factory(wallet).deploy();
    await log.waitForDeployment();
    for (const block of TRADES) {
      await provider.send("evm_setNextBlockTimestamp", [Number(block.time)]);
      const tx = await log.trade(
        block.trades.map((t) => t[0]),
        block.trades.map((t) => t[1]),
        block.trades.map((t) => t[2]),
      );
      await tx.wait();
    }
    const trades = (await log.getAddress()).toLowerCase();
    work = await mkdtemp(path.join(tmpdir(), "vip-compare-"));
    currentFile = path.join(work, "current.sql");
    proposedFile = path.join(work, "next", "capped.sql");
    await mkdir(path.dirname(proposedFile));
    await writeFile(currentFile, CURRENT(trades));
    await writeFile(proposedFile, PROPOSED(trades));
    proxy = await startFaultProxy(node.url);
    baseChain = await startL1RestStandIn({
      stage: 3n,
      stageStartTime: T0 + 2000n,
      stageEndTime: T0 + 3000n,
      stageInterval: 1000n,
      stageData: new Map(STAGES),
      now: T0 + 2200n,
    });
  });
  after(async () => {
    await proxy.close();
    await baseChain.close();
    await node.close();
    await rm(work, { recursive: true, force: true });
  });

  const compare = (args: string[]) =>
    runHardhat(
      [
        "scores:compare",
        "--network",
        "rollup",
        "--data-dir",
        path.join(work, "data"),
        ...args,
      ],
      { JSON_RPC_URL: proxy.url, L1_REST_URL: baseChain.url },
    );
  const nodeRequests = () =>
    Object.values(proxy.seen).reduce((sum, n) => sum + n, 0);

  /**
   * Stage 2 compared with `--out compare-2/`, run once by whichever test
   * needs it first: each test awaits it, so none relies on another having
   * run (each passes alone with --grep).
   */
  let stageTwoRun: Promise<CliResult> | undefined;
  const stageTwoOut = () => path.join(work, "compare-2");
  const stageTwo = () =>
    (stageTwoRun ??= compare([
      "--policy",
      currentFile,
      "--with",
      proposedFile,
      "--stage",
      "2",
      "--out",
      stageTwoOut(),
    ]));

  it("compares stage 2 (worked by hand) and writes the page, the CSV and both policies", async () => {
    const out = stageTwoOut();
    const result = await stageTwo();
    expect(result.code, result.output).to.equal(0);
    // By hand: A 76 → 10 (its 10x trade no longer counts), B 18 → 20,
    // C 20 → 40, D 72 → none, E 0 → 1, G 20 → 20, H 7 → 3. Totals 213 →
    // 94. A (10 < 38) and D (0 < 36) fall below vesting's minimum; B, C, G
    // and H (3 = ⌊7 / 2⌋) do not.
    const before = current(T0 + 1000n, T0 + 2000n);
    const after = proposed(T0 + 1000n, T0 + 2000n);
    expect(before.get(H)).to.equal(7n);
    expect(after.get(H)).to.equal(3n);
    const expected = expectedSummary(before, after);
    expect(expected.belowMinimum).to.equal(2);
    expect(expected.totals).to.deep.equal([213n, 94n]);
    for (const line of summaryLines(expected))
      expect(result.stdout).to.match(line);
    expect(result.stdout).to.match(
      /^addresses\s+7 named by either policy: 1 gained, 1 lost, 4 changed, 1 unchanged$/m,
    );
    expect(result.stdout).to.match(/^vesting\s+2 of 6 users scored now /m);
    expect(result.stdout).to.match(
      /^current\s+leveraged-volume \(.*current\.sql, from stage 1, sha256 [0-9a-f]{16}…\)$/m,
    );
    expect(result.stdout).to.match(
      /^proposed\s+capped-volume \(.*capped\.sql, from stage 5, sha256 [0-9a-f]{16}…\)$/m,
    );
    // One window line: both policies ran over the same blocks.
    expect(result.stdout.match(/^window\s/gm)).to.have.length(1);
    // The largest loss by score is A's, then D's: -66, -72 → D first.
    expect(result.stdout).to.match(
      new RegExp(
        `^largest losses\\s+by score\\n  ${getAddress(D)}  72 → 0 \\(-72\\)  share 33\\.8028% → 0\\.0000% \\(-33\\.8028 points\\)\\n  ${getAddress(A)}  76 → 10 \\(-66\\)`,
        "m",
      ),
    );

    const csv = (await readFile(path.join(out, "compare.csv"), "utf8"))
      .trim()
      .split("\n");
    expect(csv[0]).to.equal(
      "address,score_before,score_after,score_change,share_before,share_after," +
        "share_before_percent,share_after_percent,change,below_vesting_minimum",
    );
    const lines = csv.slice(1).map((line) => line.split(","));
    expect(lines.map((l) => l[0])).to.deep.equal([A, B, C, D, E, G, H]);
    for (const [address, b, f, , shareB, shareF, , , , below] of lines) {
      const want = [
        before.get(address ?? "") ?? 0n,
        after.get(address ?? "") ?? 0n,
      ];
      expect([BigInt(b ?? ""), BigInt(f ?? "")], address).to.deep.equal(want);
      expect(shareB).to.equal(want[0] === 0n ? "0" : `${want[0]}/213`);
      expect(shareF).to.equal(want[1] === 0n ? "0" : `${want[1]}/94`);
      const [now = 0n, next = 0n] = want;
      expect(below, address).to.equal(
        now > 0n && next < (now * 5n) / 10n ? "yes" : "no",
      );
    }
    // A and D below; H, at the minimum exactly, not.
    expect(lines.filter((l) => l[9] === "yes").map((l) => l[0])).to.deep.equal([
      A,
      D,
    ]);
    expect(
      await readFile(path.join(out, "current-current.sql"), "utf8"),
    ).to.equal(await readFile(currentFile, "utf8"));
    expect(
      await readFile(path.join(out, "proposed-capped.sql"), "utf8"),
    ).to.equal(await readFile(proposedFile, "utf8"));
  });

  it("compares stage 1, and a window across both stages with --with a folder, against the same computation", async () => {
    // A folder's policy for a window without --stage-number: its latest.
    const folder = path.dirname(proposedFile);
    for (const [args, start, end] of [
      [["--with", proposedFile, "--stage", "1"], T0, T0 + 1000n],
      [
        ["--with", folder, "--window", `${T0 + 500n},${T0 + 1500n}`],
        T0 + 500n,
        T0 + 1500n,
      ],
    ] as const) {
      const result = await compare(["--policy", currentFile, ...args]);
      expect(result.code, result.output).to.equal(0);
      const expected = expectedSummary(
        current(start, end),
        proposed(start, end),
      );
      for (const line of summaryLines(expected))
        expect(result.stdout, args.join(" ")).to.match(line);
    }
  });

  it("refuses a proposed policy that cannot run before any request to the node, and a missing --with", async () => {
    const broken = path.join(work, "broken.sql");
    await writeFile(
      broken,
      (await readFile(proposedFile, "utf8")).replace("// 1000", "/ 1000"),
    );
    const out = path.join(work, "never");
    const seen = nodeRequests();
    const refused = await compare([
      "--policy",
      currentFile,
      "--with",
      broken,
      "--stage",
      "2",
      "--out",
      out,
    ]);
    expect(failure(refused, ERRORS.SCORING.ADMISSION.POLICY_FLOATING)).to.match(
      /broken\.sql/,
    );
    expect(nodeRequests()).to.equal(seen);
    expect(existsSync(out)).to.equal(false);

    const missing = await compare(["--policy", currentFile, "--stage", "2"]);
    expect(failure(missing, ERRORS.CONFIG.OPTIONS.OPTION_REQUIRED)).to.match(
      /--with/,
    );

    // A folder is picked from as --policy is: stage 2 has no proposed policy in it.
    const folder = await compare([
      "--policy",
      currentFile,
      "--with",
      path.dirname(proposedFile),
      "--stage",
      "2",
    ]);
    expect(
      failure(folder, ERRORS.REPORT.COMPARE.COMPARE_NO_PROPOSED_POLICY),
    ).to.match(/earliest starts at stage 5/);
    expect(nodeRequests()).to.equal(seen);
  });

  describe("its page in Debian's headless Chromium", function () {
    let browser: Browser | undefined;

    before(async function () {
      if (!existsSync(CHROMIUM))
        throw new Error(
          `${CHROMIUM} is missing: the browser tests need Debian's chromium package ` +
            "(scripts/setup.sh installs it, or apt-get install chromium).",
        );
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
      });
    });
    after(async () => {
      await browser?.close();
    });

    it("shows the counts, the largest changes and both policies' SQL as text", async () => {
      if (browser === undefined) throw new Error("no browser");
      const written = await stageTwo();
      expect(written.code, written.output).to.equal(0);
      const page = await browser.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on("pageerror", (error) => problems.push(error.message));
      page.on("request", (request) => requests.push(request.url()));
      const file = path.join(stageTwoOut(), "compare.html");
      await page.goto(pathToFileURL(file).href);
      const text = async (selector: string) =>
        ((await page.locator(selector).textContent()) ?? "").trim();
      expect(await text("#count-gained")).to.equal("1");
      expect(await text("#count-lost")).to.equal("1");
      expect(await text("#count-changed")).to.equal("4");
      expect(await text("#count-unchanged")).to.equal("1");
      expect(await text("#count-vesting")).to.equal("2");
      expect(await text("#totals")).to.equal("213 → 94 (-119)");
      expect(
        await text("#score-losses + div tbody tr:first-child td:first-child"),
      ).to.equal(getAddress(D));
      expect(
        await text("#share-gains + div tbody tr:first-child td:first-child"),
      ).to.equal(getAddress(C));
      // Both policies' SQL, the comment as typed and no element made of it.
      expect(await text("#policy-current pre")).to.equal(
        (await readFile(currentFile, "utf8")).trim(),
      );
      expect(await text("#policy-proposed pre")).to.include(
        "A note that must stay text: </script><b>bold</b>",
      );
      expect(await page.locator("#policy-proposed pre b").count()).to.equal(0);
      // The filter of every address.
      await page.fill("#address-filter", getAddress(E).slice(0, 6));
      expect(await text("#filter-shown")).to.equal("1");
      expect(
        await page.locator("#every-address tbody tr:not([hidden])").count(),
      ).to.equal(1);
      expect(problems).to.deep.equal([]);
      for (const request of requests) expect(request).to.match(/^file:\/\//);
      await page.close();
    });
  });
});
