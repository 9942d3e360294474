import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import type { JsonRpcProvider } from "ethers";

import {
  BLOCKS,
  COLLECTORS,
  E18,
  GAMBLERS,
  KEEPERS,
  LENDERS,
  OPEN_STAGE,
  PLAYERS,
  STAGES,
  SUPPLIERS,
  TRADERS,
  type Window,
} from "./activity.js";
import {
  budgetShareByPoints,
  nftMintTradeBooster,
  perSecondMarketBudget,
  pointsWhileHolding,
  rankPots,
  type Scores,
  timeWeightedLending,
  volumeLeverageTiers,
} from "./models.js";
import { type Deployed, deployVenues, playBlocks } from "./play.js";
import { pointSources } from "./sources.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import { runHardhat } from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import { directProvider } from "../helpers/rig.js";
import { parseScoreCsv } from "../helpers/score-csv.js";

/** Scores as an object of strings: a difference reads as one. */
const readable = (scores: Scores) =>
  Object.fromEntries([...scores].map(([a, s]) => [a, s.toString()]));

interface Family {
  /** The example's file name without `.sql`: the family's template name. */
  name: string;
  /** Each @source table's contract. */
  sources: (at: Deployed) => Record<string, string>;
  model: (blocks: typeof BLOCKS, window: Window) => Scores;
  /**
   * A few scores worked out by hand from the words (in comments), so that
   * the model itself is checked too: stage, address, score.
   */
  byHand: [bigint, string, bigint][];
  /** Where stage 2's total must fall, from the words alone. */
  total?: [bigint, bigint];
}

const FAMILIES: Family[] = [
  {
    name: "volume-leverage-tiers",
    sources: (at) => ({ trades: at.perp }),
    model: volumeLeverageTiers,
    byHand: [
      // 500 at 1x (100 %), 100 at 9.9999x (150 %), 10 at 24.9999x (120 %).
      [2n, TRADERS.a, (500n * 100n + 100n * 150n + 10n * 120n) / 100n],
      // 200 at exactly 2x (125 %), 333 + 7 wei at exactly 5x (150 %): 749.5…
      [2n, TRADERS.b, 749n],
      // 40 at exactly 25x and 1 − 1 wei at 50x, both 50 %: 20.49…
      [2n, TRADERS.d, 20n],
    ],
  },
  {
    name: "points-while-holding",
    sources: (at) => ({ actions: at.city, land: at.land }),
    model: pointsWhileHolding,
    byHand: [
      [2n, PLAYERS.p1, 3n + 1n], // not the 8 after its land was burnt
      [2n, PLAYERS.p2, 6n], // after buying land 2 back, not the 7 before
      [2n, PLAYERS.p3, 4n + 2n + 11n], // not the 100 after selling land 2
      [2n, PLAYERS.p4, 5n + 9n], // not the 900 before its land, same block
    ],
  },
  {
    name: "time-weighted-lending",
    sources: (at) => ({
      supplies: at.inertia,
      withdrawals: at.inertia,
      borrows: at.inertia,
      repays: at.inertia,
    }),
    model: timeWeightedLending,
    byHand: [
      // 700 supplied all window (1x), 200 borrowed the first hour (2x),
      // 1 800 more in the last second: 33 600 + 400 + 0.5 token-hours.
      [2n, LENDERS.l1, 34_000n],
    ],
  },
  {
    name: "per-second-market-budget",
    sources: (at) => ({ supplies: at.echelon, withdrawals: at.echelon }),
    model: perSecondMarketBudget,
    byHand: [
      // Stage 1, market 1 (10 points a second): E1 alone the first day
      // (864 000); the second day E2 has 300 + 1 wei to E1's 100, so E1 has
      // ⌊10⁷ · 100 / (400 + 1 wei)⌋ = 2 499 999 millionths a second
      // (215 999.91) and E2 7 500 000 (648 000). Market 2 has no supply.
      [1n, SUPPLIERS.e1, 864_000n + 215_999n],
      [1n, SUPPLIERS.e2, 648_000n],
    ],
    // Both markets have supply every second of the two days: 2 × (864 000 +
    // 172 800) paid, less under a millionth a second for each of at most 3
    // suppliers of 2 markets, and under 1 for each of 3 users' floors.
    total: [2n * (864_000n + 172_800n) - 5n, 2n * (864_000n + 172_800n)],
  },
  {
    name: "rank-pots",
    sources: (at) => ({ bets: at.casino }),
    model: rankPots,
    byHand: [
      [2n, GAMBLERS.r1, 5_000n],
      [2n, GAMBLERS.r3, 3_000n], // ties r2 at 300, lower address
      [2n, GAMBLERS.r2, 2_000n],
      [2n, GAMBLERS.r4, 1_333n], // ranks 4–6: 4 000 / 3
      [2n, GAMBLERS.r5, 750n], // third of the three at 200: rank 7, 3 000 / 4
      [2n, GAMBLERS.r10, 750n], // rank 9 of the three at 50
      [2n, GAMBLERS.r9, 0n], // rank 11: left out
      // Stage 1: five players, so ranks 4 and 5 share 4 000 between two.
      [1n, GAMBLERS.r4, 2_000n],
      [1n, GAMBLERS.r5, 2_000n],
    ],
  },
  {
    name: "budget-share-by-points",
    sources: (at) => ({ harvests: at.pets }),
    model: budgetShareByPoints,
    byHand: [
      // Points 4, 4 and 3 of 11.
      [2n, KEEPERS.k1, 363_636n],
      [2n, KEEPERS.k2, 363_636n],
      [2n, KEEPERS.k3, 272_727n],
    ],
    total: [999_999n, 999_999n],
  },
  {
    name: "nft-mint-trade-booster",
    sources: (at) => ({
      mints: at.collection,
      sales: at.market,
      passes: at.pass,
    }),
    model: nftMintTradeBooster,
    byHand: [
      [2n, COLLECTORS.g1, 3n], // sold for 3; its pass went to G2
      [
        2n,
        COLLECTORS.g2,
        (150n * (100n * E18 + 6n * E18 + (3n * E18) / 2n + 1n)) / (100n * E18),
      ],
      [2n, COLLECTORS.g3, 53n], // its pass went to G4 in the last second
      [2n, COLLECTORS.g4, 75n],
      // Stage 1: G3 minted (50) and sold for 2 + 5 wei; G4 bought it (2 × 2)
      // and got a pass in stage 1's last second (× 1.5); G2 minted then.
      [1n, COLLECTORS.g3, 52n],
      [1n, COLLECTORS.g4, 6n],
      [1n, COLLECTORS.g2, 50n],
      [1n, COLLECTORS.g1, 0n], // a pass, and nothing done
    ],
  },
];

describe("the cookbook: each example policy of policies/examples/, copied by scores:new-policy and run by scores:compute on hardhat node, gives what its words give", function () {
  let node: HardhatNode;
  let provider: JsonRpcProvider;
  let baseChain: L1RestStandIn;
  let work: string;
  let data: string;
  let deployed: Deployed;

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), "vip-cookbook-"));
    // One index for every policy, as one project keeps it.
    data = path.join(work, "vip-data");
    // Each policy is started as an operator starts one: scores:new-policy
    // copies the example (named after the file, from stage 1).
    const copies = FAMILIES.map((family) =>
      runHardhat([
        "scores:new-policy",
        "--template",
        family.name,
        "--out",
        path.join(work, `${family.name}.sql`),
      ]),
    );
    [node, baseChain] = await Promise.all([
      startHardhatNode(),
      startL1RestStandIn({
        stage: OPEN_STAGE.stage,
        stageStartTime: OPEN_STAGE.start,
        stageEndTime: OPEN_STAGE.end,
        stageInterval: OPEN_STAGE.end - OPEN_STAGE.start,
        stageData: new Map(STAGES),
        now: OPEN_STAGE.start + 600n,
      }),
    ]);
    for (const copy of await Promise.all(copies))
      expect(copy.code, copy.output).to.equal(0);
    provider = directProvider(node);
    deployed = await deployVenues(provider);
    await playBlocks(provider, deployed, BLOCKS);
  });
  after(async () => {
    await Promise.all([node?.close(), baseChain?.close()]);
    if (work !== undefined) await rm(work, { recursive: true, force: true });
  });

  const compute = (policy: string, stage: bigint, out: string) =>
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
      ],
      { JSON_RPC_URL: node.url, L1_REST_URL: baseChain.url },
    );

  for (const family of FAMILIES)
    it(`${family.name}: every address and the total of stages 1 and 2`, async () => {
      // The operator's edit: the @source lines name the venue's contracts.
      const policy = path.join(work, `${family.name}.sql`);
      await writeFile(
        policy,
        pointSources(await readFile(policy, "utf8"), family.sources(deployed)),
      );
      const out = path.join(work, family.name);
      for (const [stage, window] of STAGES) {
        const result = await compute(policy, stage, out);
        expect(result.code, result.output).to.equal(0);
        const scores = parseScoreCsv(
          await readFile(path.join(out, `stage-${stage}.final.csv`), "utf8"),
        );
        const expected = family.model(BLOCKS, window);
        expect(expected.size, "the model scores someone").to.be.greaterThan(1);
        expect(readable(scores), `stage ${stage}`).to.deep.equal(
          readable(expected),
        );
        const manifest = JSON.parse(
          await readFile(
            path.join(out, `stage-${stage}.manifest.json`),
            "utf8",
          ),
        ) as { policy: { name: string }; output: { total: string } };
        expect(manifest.policy.name).to.equal(family.name);
        expect(BigInt(manifest.output.total)).to.equal(
          [...expected.values()].reduce((a, b) => a + b, 0n),
        );
        for (const [at, address, score] of family.byHand)
          if (at === stage)
            expect(scores.get(address) ?? 0n, address).to.equal(score);
        if (stage !== 2n) continue;
        if (family.total !== undefined) {
          const [least, most] = family.total;
          const total = BigInt(manifest.output.total);
          expect(total >= least && total <= most, `total ${total}`).to.equal(
            true,
          );
        }
      }
    });
});
