import { expect } from "chai";
import { network } from "hardhat";

import {
  deployVipScore,
  sampleAddresses,
  sampleScores,
} from "../../scripts/gas/scenarios.js";
import { defined } from "../../tasks/errors.js";
import { entryKinds, READER_BATCH } from "../../tasks/scores/entry-reader.js";
import { EntryCollector } from "../../tasks/scores/entry.js";
import { CHANGED, NEW, SAME } from "../../tasks/scores/gas-model.js";
import {
  ChainComparison,
  compareWithChain,
} from "../../tasks/scores/read-back.js";
import { VipScore__factory } from "../../types/ethers-contracts/index.js";

const { ethers } = await network.create();

/**
 * More than two calls of the reader (2,400 addresses each), so its batches are
 * joined.
 */
const COUNT = 2 * READER_BATCH + 200;
const MIDDLE = READER_BATCH + 100;
const addresses = sampleAddresses(COUNT, "read-back");
const scores = sampleScores(COUNT, "read-back");

function tableOf(scoreAt: (i: number) => bigint) {
  const collector = new EntryCollector();
  addresses.forEach((address, i) =>
    collector.add(i + 2, address, String(scoreAt(i))),
  );
  return collector.table;
}

async function write(
  score: Awaited<ReturnType<typeof deployVipScore>>,
  stage: bigint,
  addrs: string[],
  amounts: bigint[],
) {
  for (let from = 0; from < addrs.length; from += 400) {
    await (
      await score.updateScores(
        stage,
        addrs.slice(from, from + 400),
        amounts.slice(from, from + 400),
        { gasLimit: 16_000_000n },
      )
    ).wait();
  }
}

/** The test node's provider with another `call`. */
function withCall(call: (tx: { to?: string | null }) => Promise<string>) {
  return new Proxy(ethers.provider, {
    get(target, property, receiver) {
      if (property === "call") return call;
      if (property === "provider") return receiver; // a provider is its own runner's provider
      const value = Reflect.get(target, property) as unknown;
      return typeof value === "function"
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}

describe("reading a stage back", () => {
  it("finds every difference: a changed score, an entry never written, an address the file lacks", async () => {
    const score = await deployVipScore(ethers, 3n);
    // Everything but the last entry, then one score changed and two addresses
    // the file lacks (one scored 0).
    await write(
      score,
      3n,
      addresses.slice(0, COUNT - 1),
      scores.slice(0, COUNT - 1),
    );
    const stranger = "0x00000000000000000000000000000000000000aa";
    const zeroStranger = "0x00000000000000000000000000000000000000bb";
    await write(
      score,
      3n,
      [defined(addresses[MIDDLE], "addresses[MIDDLE]"), stranger, zeroStranger],
      [7n, 3n, 0n],
    );
    const table = tableOf((i) => defined(scores[i], "scores[i]"));

    const differences = await compareWithChain(score, 3n, table);

    expect(differences).to.deep.equal([
      {
        address: addresses[MIDDLE],
        line: MIDDLE + 2,
        expected: scores[MIDDLE],
        actual: 7n,
      },
      {
        address: addresses[COUNT - 1],
        line: COUNT + 1,
        expected: scores[COUNT - 1],
        actual: undefined,
      },
      { address: stranger, expected: 0n, actual: 3n },
    ]);
  });

  it("says nothing differs when the chain holds exactly the file", async () => {
    const score = await deployVipScore(ethers, 3n);
    await write(score, 3n, addresses, scores);
    expect(
      await compareWithChain(
        score,
        3n,
        tableOf((i) => defined(scores[i], "scores[i]")),
      ),
    ).to.deep.equal([]);
  });

  it("compares batches as they are confirmed and the rest at the end, reading each entry once", async () => {
    const score = await deployVipScore(ethers, 3n);
    const confirmed = READER_BATCH + 1000;
    await write(
      score,
      3n,
      addresses.slice(0, confirmed),
      scores.slice(0, confirmed),
    );
    let readerCalls = 0;
    const counted = VipScore__factory.connect(
      await score.getAddress(),
      withCall((tx) => {
        if (!tx.to) readerCalls++;
        return ethers.provider.call(tx);
      }),
    );
    const comparison = new ChainComparison(
      counted,
      3n,
      tableOf((i) => defined(scores[i], "scores[i]")),
    );
    comparison.check(0, MIDDLE); // read in the background: a full reader call is queued
    comparison.check(1000, confirmed); // overlapping: entries already queued are not read again
    await write(score, 3n, addresses.slice(confirmed), scores.slice(confirmed));
    expect(await comparison.finish()).to.deep.equal([]);
    // A full call while "pushing", then the rest (a full call and 200): every
    // entry read once, in three calls.
    expect(readerCalls).to.equal(3);
  });

  it("compares through the stage's pages on a node that runs no creation code in eth_call", async () => {
    const score = await deployVipScore(ethers, 3n);
    await write(score, 3n, addresses.slice(0, COUNT - 1), [
      7n,
      ...scores.slice(1, COUNT - 1),
    ]);
    // The same node, but calls without `to` are refused, as a node may do.
    let refused = 0;
    const refusing = VipScore__factory.connect(
      await score.getAddress(),
      withCall((tx) => {
        if (tx.to) return ethers.provider.call(tx);
        refused++;
        return Promise.reject(
          new Error("contract creation in eth_call is not supported"),
        );
      }),
    );

    expect(
      await compareWithChain(
        refusing,
        3n,
        tableOf((i) => defined(scores[i], "scores[i]")),
      ),
    ).to.deep.equal([
      { address: addresses[0], line: 2, expected: scores[0], actual: 7n },
      {
        address: addresses[COUNT - 1],
        line: COUNT + 1,
        expected: scores[COUNT - 1],
        actual: undefined,
      },
    ]);
    expect(
      await entryKinds(
        refusing,
        3n,
        tableOf((i) => defined(scores[i], "scores[i]")),
      ),
    ).to.deep.equal(
      await entryKinds(
        score,
        3n,
        tableOf((i) => defined(scores[i], "scores[i]")),
      ),
    );
    expect(refused, "reader calls tried and refused").to.be.greaterThan(0);
  });

  it("tells each entry's kind for the gas model: new, changed, or the score the chain holds", async () => {
    const score = await deployVipScore(ethers, 3n);
    await write(score, 3n, addresses.slice(0, 2000), scores.slice(0, 2000));
    // The file keeps the first 1,000 scores, changes the next 1,000, and adds
    // the rest as new addresses.
    const kinds = await entryKinds(
      score,
      3n,
      tableOf((i) =>
        i < 1000
          ? defined(scores[i], "scores[i]")
          : defined(scores[i], "scores[i]") + 1n,
      ),
    );
    expect(kinds.slice(0, 1000).every((k: number) => k === SAME)).to.equal(
      true,
    );
    expect(
      kinds.slice(1000, 2000).every((k: number) => k === CHANGED),
    ).to.equal(true);
    expect(kinds.slice(2000).every((k: number) => k === NEW)).to.equal(true);
  });
});
