import { expect } from "chai";

import { InFlightWindow, isPoolFull } from "../../tasks/scores/in-flight.js";

const LIMIT = 150_000_000n;
const full = (heldBack: boolean) => ({
  gasUsed: (LIMIT * 95n) / 100n,
  gasLimit: LIMIT,
  heldBack,
});
const half = (heldBack: boolean) => ({
  gasUsed: LIMIT / 2n,
  gasLimit: LIMIT,
  heldBack,
});

describe("the push's in-flight window", () => {
  it("starts at two blocks' worth", () => {
    expect(new InFlightWindow(9).size).to.equal(18);
    expect(new InFlightWindow(1).size).to.equal(2);
    expect(new InFlightWindow(0).size).to.equal(2);
  });

  it("grows by a block's worth only when a block was not full while batches were held back", () => {
    const window = new InFlightWindow(9);
    window.observe(full(true)); // the chain keeps up: enough in flight
    window.observe(half(false)); // nothing was waiting: the file is ending
    expect(window.size).to.equal(18);
    window.observe(half(true)); // the pool ran dry between blocks
    expect(window.size).to.equal(27);
    window.observe(half(true));
    expect(window.size).to.equal(36);
  });

  it("stops growing at its ceiling", () => {
    const window = new InFlightWindow(9, 4);
    for (let i = 0; i < 20; i++) window.observe(half(true));
    expect(window.size).to.equal(36);
  });

  it("halves on a full pool and never grows back to the size the node refused", () => {
    const window = new InFlightWindow(9);
    for (let i = 0; i < 4; i++) window.observe(half(true));
    expect(window.size).to.equal(54);
    window.refused();
    expect(window.size).to.equal(27);
    for (let i = 0; i < 10; i++) window.observe(half(true));
    expect(window.size).to.equal(53);
    window.refused();
    window.refused();
    window.refused();
    expect(window.size).to.equal(9); // never below a block's worth
  });

  it("tells a full pool from other refusals", () => {
    for (const message of [
      "txpool is full",
      "mempool is full: number of txs 5000 (max: 5000)",
      "too many pending transactions",
      "Error: transaction pool limit reached",
    ])
      expect(isPoolFull(new Error(message)), message).to.equal(true);
    for (const message of [
      "nonce too low",
      "insufficient funds for gas * price + value",
      "execution reverted: PermissionDenied",
    ])
      expect(isPoolFull(new Error(message)), message).to.equal(false);
  });
});
