import { runInNewContext } from "node:vm";

import { expect } from "chai";

import { address } from "./fixture.js";
import { NUMBERS_JS } from "../../tasks/report/browser/numbers.js";
import { SHARDS_JS } from "../../tasks/report/browser/shards.js";
import { VESTING_JS } from "../../tasks/report/browser/vesting.js";
import { groupThousands, shareOfTotal } from "../../tasks/report/numbers.js";
import { shardFile, shardOf } from "../../tasks/report/shards.js";
import { fallsBelowVestingMinimum } from "../../tasks/scores/vesting.js";

/** A browser script's functions, run in a context of their own. */
function browserFunctions(source: string): Record<string, unknown> {
  const context: Record<string, unknown> = { window: {} };
  runInNewContext(source, context);
  return context;
}

function call<T>(
  functions: Record<string, unknown>,
  name: string,
  ...args: unknown[]
): T {
  const fn = functions[name];
  if (typeof fn !== "function") throw new Error(`${name} is not defined`);
  return fn(...args) as T;
}

/** Pseudo-random uint64s, the same in every run. */
function* uint64s(count: number): Generator<bigint> {
  let x = 0x9e3779b97f4a7c15n;
  for (let i = 0; i < count; i++) {
    x = (x * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
    // Every size, from a single digit to 20 digits.
    yield x >> BigInt(i % 64);
  }
}

/** [earlier, later, below vesting's minimum], worked by hand. */
const VESTING_CASES: [bigint, bigint, boolean][] = [
  [7n, 3n, false], // ⌊7 × 0.5⌋ = 3: at the minimum vests in full
  [7n, 2n, true],
  [8n, 4n, false],
  [8n, 3n, true],
  [1n, 0n, false], // ⌊1 × 0.5⌋ = 0
  [2n, 0n, true],
  [0n, 0n, false], // no score, no minimum
  [0n, 5n, false],
  [5n, 500n, false],
  [2n ** 64n - 1n, 2n ** 63n - 1n, false],
  [2n ** 64n - 1n, 2n ** 63n - 2n, true],
];

describe("scores:report's browser scripts agree with the TypeScript", () => {
  const numbers = browserFunctions(NUMBERS_JS);
  const shards = browserFunctions(SHARDS_JS);
  const vesting = browserFunctions(VESTING_JS);

  it("vesting's minimum: the same answer to every case, as the contract rounds", () => {
    for (const [before, after, below] of VESTING_CASES) {
      const label = `${before} → ${after}`;
      expect(fallsBelowVestingMinimum(before, after), label).to.equal(below);
      expect(
        call<boolean>(vesting, "fallsBelowVestingMinimum", before, after),
        label,
      ).to.equal(below);
    }
    const values = [...uint64s(200)];
    values.forEach((before, i) => {
      const after = values[(i * 7 + 3) % values.length] ?? 0n;
      for (const later of [after, before / 2n, before / 2n - 1n])
        if (later >= 0n)
          expect(
            call<boolean>(vesting, "fallsBelowVestingMinimum", before, later),
          ).to.equal(fallsBelowVestingMinimum(before, later));
    });
  });

  it("groups by thousands, every digit kept", () => {
    expect(groupThousands("0")).to.equal("0");
    expect(groupThousands("999")).to.equal("999");
    expect(groupThousands("1000")).to.equal("1,000");
    expect(groupThousands("18446744073709551615")).to.equal(
      "18,446,744,073,709,551,615",
    );
    for (const value of uint64s(200))
      expect(call(numbers, "groupThousands", value.toString())).to.equal(
        groupThousands(value.toString()),
      );
  });

  it("a share with the digits a non-zero score needs, the same in both", () => {
    expect(shareOfTotal(21n, 100_000_000n)).to.equal("0.000021");
    expect(shareOfTotal(1n, 3n)).to.equal("33.3333");
    expect(shareOfTotal(2n, 3n)).to.equal("66.6667");
    expect(shareOfTotal(1n, 1n)).to.equal("100.0000");
    expect(shareOfTotal(0n, 5n)).to.equal("0");
    expect(shareOfTotal(1n, 2n ** 64n)).to.equal("0.0000000000000000054");
    // Below the total, never read as the whole: 99.99999… keeps its digits.
    expect(shareOfTotal(2n ** 64n - 1n, 2n ** 64n)).to.equal(
      "99.99999999999999999",
    );
    expect(shareOfTotal(9_999_999n, 10_000_000n)).to.equal("99.99999");
    expect(call(numbers, "shareOfTotal", 2n ** 64n - 1n, 2n ** 64n)).to.equal(
      "99.99999999999999999",
    );
    const values = [...uint64s(300)];
    values.forEach((score, i) => {
      const total = score + (values[(i * 13 + 5) % values.length] ?? 0n);
      const share = shareOfTotal(score, total);
      expect(call(numbers, "shareOfTotal", score, total)).to.equal(share);
      // Never 100 for a score below the total.
      if (score < total) expect(share).to.not.match(/^100\.0+$/);
      // Never 0 for a score above 0; at least two significant digits.
      if (score > 0n)
        expect(
          share.replace(/^[0.]+/, "").replace(".", ""),
        ).to.have.length.of.at.least(2);
    });
  });

  it("an address's shard and its file, the same in both", () => {
    for (const bits of [0, 1, 4, 7, 11, 16])
      for (let n = 0; n < 300; n++) {
        const hex = address(n).slice(2);
        const shard = shardOf(Buffer.from(hex, "hex"), bits);
        expect(shard).to.be.below(2 ** bits);
        expect(call(shards, "shardOf", hex, bits)).to.equal(shard);
        expect(call(shards, "shardFile", "12", bits, shard)).to.equal(
          shardFile(12n, bits, shard),
        );
      }
  });
});
