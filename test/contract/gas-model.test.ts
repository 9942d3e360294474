import { expect } from "chai";
import { network } from "hardhat";

import {
  deployVipScore,
  sampleAddresses,
  sampleScores,
} from "../../scripts/gas/scenarios.js";
import { defined } from "../../tasks/errors.js";
import { EntryCollector } from "../../tasks/scores/entry.js";
import {
  CHANGED,
  type EntryKind,
  NEW,
  predictGas,
  SAME,
} from "../../tasks/scores/gas-model.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";

const { ethers } = await network.create();

/** A table of `addresses` with `scores`, as a score file would give. */
function tableOf(addresses: string[], scores: bigint[]) {
  const collector = new EntryCollector();
  addresses.forEach((address, i) =>
    collector.add(i + 2, address, String(scores[i])),
  );
  return collector.table;
}

/**
 * Writes `count` addresses in batches small enough for one transaction each.
 */
async function prefill(score: VipScore, addresses: string[], scores: bigint[]) {
  for (let from = 0; from < addresses.length; from += 400) {
    await (
      await score.updateScores(
        1n,
        addresses.slice(from, from + 400),
        scores.slice(from, from + 400),
        { gasLimit: 16_000_000n },
      )
    ).wait();
  }
}

/**
 * The model must never predict less than a batch needs, or batches run out of
 * gas: each batch is sent with the predicted gas as its limit and must succeed
 * (which also covers the stipend a no-op store needs and the gas a CREATE holds
 * back, that the gas used does not show). And it must stay close, or blocks go
 * out part empty. Gas is deterministic here, so both bounds are exact checks.
 * (The node's estimate is no bound: its search stops up to ~1% above the least
 * gas that works.)
 */
describe("the gas model of updateScores", () => {
  const cases: {
    name: string;
    fresh: number;
    changed: number;
    same: number;
    stageWritten: boolean;
  }[] = [
    {
      name: "1 new address, first write to the stage",
      fresh: 1,
      changed: 0,
      same: 0,
      stageWritten: false,
    },
    {
      name: "3 new addresses (one slot each)",
      fresh: 3,
      changed: 0,
      same: 0,
      stageWritten: true,
    },
    {
      name: "4 new addresses (the first chunk)",
      fresh: 4,
      changed: 0,
      same: 0,
      stageWritten: true,
    },
    {
      name: "550 new addresses",
      fresh: 550,
      changed: 0,
      same: 0,
      stageWritten: false,
    },
    {
      name: "500 new addresses after others",
      fresh: 500,
      changed: 0,
      same: 0,
      stageWritten: true,
    },
    {
      name: "1 changed score",
      fresh: 0,
      changed: 1,
      same: 0,
      stageWritten: true,
    },
    {
      name: "1,000 changed scores",
      fresh: 0,
      changed: 1000,
      same: 0,
      stageWritten: true,
    },
    {
      name: "1,000 scores the chain already holds",
      fresh: 0,
      changed: 0,
      same: 1000,
      stageWritten: true,
    },
    {
      name: "200 new, 200 changed, 200 the same",
      fresh: 200,
      changed: 200,
      same: 200,
      stageWritten: true,
    },
  ];

  for (const c of cases) {
    it(`covers the gas of ${c.name}, within 1.5% (or 30,000 gas for small batches)`, async () => {
      const score = await deployVipScore(ethers, 1n);
      const existing = sampleAddresses(
        c.changed + c.same + (c.stageWritten ? 1 : 0),
        `existing-${c.name}`,
      );
      const before = sampleScores(existing.length, "before");
      if (existing.length > 0) await prefill(score, existing, before);
      const fresh = sampleAddresses(c.fresh, `fresh-${c.name}`);
      const addresses = [
        ...fresh,
        ...existing.slice(0, c.changed),
        ...existing.slice(c.changed, c.changed + c.same),
      ];
      const scores = [
        ...sampleScores(c.fresh, "fresh"),
        ...sampleScores(c.changed, "after"),
        ...before.slice(c.changed, c.changed + c.same),
      ];
      const kinds: EntryKind[] = [
        ...fresh.map((): EntryKind => NEW),
        ...Array<EntryKind>(c.changed).fill(CHANGED),
        ...Array<EntryKind>(c.same).fill(SAME),
      ];
      const table = tableOf(addresses, scores);

      const predicted = predictGas(
        table,
        addresses.map((_, i) => i),
        (i) => defined(kinds[i], "kinds[i]"),
      );
      const receipt = await (
        await score.updateScores(1n, addresses, scores, { gasLimit: predicted })
      ).wait();

      expect(
        defined(receipt, "receipt").status,
        "a batch sent with the predicted gas limit succeeds",
      ).to.equal(1);
      // The fixed part (the stage record's first write, counted always) weighs
      // on small batches only.
      const slack = Math.max(
        Number(defined(receipt, "receipt").gasUsed) * 0.015,
        30_000,
      );
      expect(
        Number(predicted - defined(receipt, "receipt").gasUsed),
        `predicted ${predicted}, used ${defined(receipt, "receipt").gasUsed}`,
      ).to.be.below(slack);
    });
  }
});
