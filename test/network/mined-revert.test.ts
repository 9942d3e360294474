import { expect } from "chai";
import { AbiCoder, id } from "ethers";

import { minedRevertReason } from "../../tasks/network/mined-revert.js";

const HASH = `0x${"ab".repeat(32)}`;
const GAS_LIMIT = 100_000n;

/** Revert data of Solidity's own `name(type)` error with `value`. */
function builtIn(signature: string, type: string, value: unknown): string {
  return (
    id(signature).slice(0, 10) +
    AbiCoder.defaultAbiCoder().encode([type], [value]).slice(2)
  );
}

/**
 * A node that has the failed transaction `HASH` (mined in block 7, using
 * `gasUsed`) and answers its replay as `call` does; the error a call throws
 * is shaped as Hardhat's provider throws it (its revert data in `data`).
 */
function node(
  call: () => Promise<string>,
  gasUsed = 40_000n,
): Parameters<typeof minedRevertReason>[0] {
  const tx = {
    to: `0x${"11".repeat(20)}`,
    from: `0x${"22".repeat(20)}`,
    data: "0x",
    value: 0n,
    gasLimit: GAS_LIMIT,
  };
  return {
    getTransaction: async () => tx as never,
    getTransactionReceipt: async () => ({ blockNumber: 7, gasUsed }) as never,
    call,
  };
}

const reverting = (data: string) => async (): Promise<string> => {
  throw Object.assign(new Error("execution reverted"), { code: 3, data });
};

describe("why a mined transaction failed (minedRevertReason)", () => {
  it("decodes Solidity's Error(string), its text escaped and cut", async () => {
    const text = `line one\nline two \u001b[31m${"x".repeat(400)}`;
    const why = await minedRevertReason(
      node(reverting(builtIn("Error(string)", "string", text))),
      HASH,
    );
    expect(why).to.match(/^: Error\("line one/);
    expect(why).to.match(/, replayed on the state after block 7$/);
    expect(why).to.not.include("\n");
    expect(why).to.not.include("\u001b");
    expect(why).to.include("more characters");
  });

  it("decodes a Panic by its code, and names another contract error by its selector", async () => {
    expect(
      await minedRevertReason(
        node(reverting(builtIn("Panic(uint256)", "uint256", 17n))),
        HASH,
      ),
    ).to.equal(": Panic(17), replayed on the state after block 7");
    const selector = id("TransferFromFailed()").slice(0, 10);
    expect(await minedRevertReason(node(reverting(selector)), HASH)).to.equal(
      `: reverted with the contract's error ${selector}, replayed on the state after block 7`,
    );
  });

  it("takes the contract's own words first, when the caller can name its errors", async () => {
    const why = await minedRevertReason(
      node(reverting(id("StageFinalized(uint64)").slice(0, 10))),
      HASH,
      () => "StageFinalized(5)",
    );
    expect(why).to.equal(
      ": StageFinalized(5), replayed on the state after block 7",
    );
  });

  it("says it ran out of gas when it used all its gas and the replay gives no revert", async () => {
    const outOfGas = async (): Promise<string> => {
      throw new Error("Transaction ran out of gas");
    };
    expect(await minedRevertReason(node(outOfGas, GAS_LIMIT), HASH)).to.equal(
      `: it ran out of gas (it used all of its ${GAS_LIMIT})`,
    );
    // Neither a revert nor all its gas: nothing to tell.
    expect(await minedRevertReason(node(outOfGas), HASH)).to.equal("");
    expect(
      await minedRevertReason(
        node(async () => "0x"),
        HASH,
      ),
    ).to.equal("");
  });

  it("gives up without holding the error back when the node does not answer", async () => {
    const silent = node(() => new Promise<string>(() => undefined));
    expect(await minedRevertReason(silent, HASH, undefined, 50)).to.equal("");
  });
});
