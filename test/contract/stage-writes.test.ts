import { expect } from "chai";
import { network } from "hardhat";

import { deployVipScore } from "../../scripts/gas/scenarios.js";
import {
  ContractWatch,
  readStageClose,
} from "../../tasks/contract/contract-watch.js";
import { stageWriteCount, hasFence } from "../../tasks/contract/fence.js";
import {
  MARKER_BYTES,
  readMarker,
  withMarker,
} from "../../tasks/contract/push-marker.js";
import { StageWrites } from "../../tasks/contract/stage-writes.js";
import { defined } from "../../tasks/errors.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";

const { ethers } = await network.create();
const provider = ethers.provider;

const STAGE = 3n;
const SHA = "ab".repeat(32);
const OTHER_SHA = "cd".repeat(32);
const [A, B, C] = [
  "0x" + "a1".repeat(20),
  "0x" + "b2".repeat(20),
  "0x" + "c3".repeat(20),
];

describe("a push's marker, and the stage's writes as another host reads them", () => {
  let score: VipScore;
  let me: string;
  let other: string;
  let from: number;

  beforeEach(async () => {
    score = await deployVipScore(ethers, STAGE);
    const [first, second] = await ethers.getSigners();
    me = await defined(first, "the node's first account").getAddress();
    other = await defined(second, "the node's second account").getAddress();
    await (await score.addAllowList(other)).wait();
    from = await provider.getBlockNumber();
  });

  /** `updateScores` sent by `signer`, its calldata marked (or not). */
  const write = async (
    signer: string,
    entries: [string, bigint][],
    marker?: Parameters<typeof withMarker>[1],
  ) => {
    const call = score.interface.encodeFunctionData("updateScores", [
      STAGE,
      entries.map((e) => e[0]),
      entries.map((e) => e[1]),
    ]);
    const sender = await ethers.getSigner(signer);
    await (
      await sender.sendTransaction({
        to: await score.getAddress(),
        data: marker === undefined ? call : withMarker(call, marker),
      })
    ).wait();
  };

  it("marks calldata so the call does exactly what it did, and reads the marker back", async () => {
    const call = score.interface.encodeFunctionData("updateScores", [
      STAGE,
      [A],
      [7n],
    ]);
    const marked = withMarker(call, { intent: "final", sha256: SHA });
    expect((marked.length - call.length) / 2).to.equal(MARKER_BYTES);
    expect(readMarker(marked)).to.deep.equal({ intent: "final", sha256: SHA });
    expect(
      readMarker(withMarker(call, { intent: "live", sha256: OTHER_SHA })),
    ).to.deep.equal({
      intent: "live",
      sha256: OTHER_SHA,
    });
    expect(readMarker(call)).to.equal(undefined);
    // Any other ending (one byte of the magic changed, an unknown intent) is no marker.
    expect(readMarker(marked.slice(0, -2) + "00")).to.equal(undefined);
    expect(readMarker(marked.replace(/02([0-9a-f]{32})$/, "07$1"))).to.equal(
      undefined,
    );
    expect(() => withMarker(call, { intent: "final", sha256: "12" })).to.throw(
      RangeError,
    );
    // The contract ignores the trailing bytes: the score is written, its event emitted.
    await write(me, [[A, 7n]], { intent: "final", sha256: SHA });
    expect((await score.scores(STAGE, A)).amount).to.equal(7n);
    expect(
      score.interface.parseTransaction({ data: marked })?.args[2],
    ).to.deep.equal([7n]);
  });

  it("reads the write count, the fencing token, at a block; a contract without one has no fence", async () => {
    expect(await hasFence(score)).to.equal(true);
    // Any contract without `writeCount` (an earlier VipScore): the call
    // reverts without data.
    const token = await (
      await ethers.getContractFactory("TestToken")
    ).deploy(me, 1n);
    await token.waitForDeployment();
    expect(
      await hasFence(score.attach(await token.getAddress()) as VipScore),
    ).to.equal(false);
    expect(await stageWriteCount(score, STAGE)).to.equal(0n);
    await write(me, [[A, 1n]]);
    const block = await provider.getBlockNumber();
    await write(me, [[A, 2n]]);
    expect(await stageWriteCount(score, STAGE, block)).to.equal(1n);
    expect(await stageWriteCount(score, STAGE)).to.equal(2n);
  });

  it("tells another host's final push of another file, naming where the scores differ; a live push is no claim", async () => {
    const writes = new StageWrites(
      provider,
      await score.getAddress(),
      STAGE,
      from,
      me,
    );
    await write(other, [[C, 9n]], { intent: "live", sha256: OTHER_SHA });
    await writes.update();
    expect(writes.disagreement(SHA, () => 1n)).to.equal(undefined);

    await write(
      other,
      [
        [A, 5n],
        [B, 6n],
      ],
      { intent: "final", sha256: OTHER_SHA },
    );
    await write(
      me,
      [
        [A, 8n],
        [B, 6n],
        [C, 1n],
      ],
      { intent: "final", sha256: SHA },
    );
    await writes.update();
    const mine = new Map([
      [A, 8n],
      [B, 6n],
      [C, 1n],
    ]);
    const found = defined(
      writes.disagreement(SHA, (address) => mine.get(address)),
      "the other host claims another file",
    );
    expect(found.claims.map((c) => [c.signer, c.sha256])).to.deep.equal([
      [other.toLowerCase(), OTHER_SHA],
    ]);
    // A differs (5 there, 8 here) though this host wrote over it; B agrees;
    // C was only a live score there.
    expect(
      found.addresses.map((d) => [d.theirs.address, d.theirs.score, d.ours]),
    ).to.deep.equal([[A, 5n, 8n]]);
    // An address this host's file does not list counts as 0.
    expect(
      writes.disagreement(SHA, () => undefined)?.addresses.map((d) => d.ours),
    ).to.deep.equal([0n, 0n]);
    expect(writes.claimed(SHA)).to.equal(true);
    expect(writes.claimed(OTHER_SHA)).to.equal(true);
    expect(writes.claimed("ef".repeat(32))).to.equal(false);

    // Files that differ only where the other host wrote nothing: still a
    // disagreement, by the files' SHA-256, with no address to name.
    expect(
      writes.disagreement(SHA, (address) => (address === A ? 5n : 6n))
        ?.addresses,
    ).to.deep.equal([]);

    // The other host, corrected, pushes this host's file: they agree.
    await write(other, [[A, 8n]], { intent: "final", sha256: SHA });
    await writes.update();
    expect(writes.disagreement(SHA, (address) => mine.get(address))).to.equal(
      undefined,
    );
  });

  it("follows who pushed final scores and who finalized, and the other signer's last write", async () => {
    const watch = new ContractWatch(
      provider,
      await score.getAddress(),
      me,
      from,
    );
    await write(other, [[A, 5n]], { intent: "live", sha256: OTHER_SHA });
    await write(me, [[A, 6n]], { intent: "final", sha256: SHA });
    await (await score.finalizeStage(STAGE)).wait();
    await watch.update();
    const close = watch.closeOf(STAGE);
    expect(close?.finalPushers).to.deep.equal([me.toLowerCase()]);
    expect(close?.finalizedBy?.signer).to.equal(me.toLowerCase());
    expect(watch.lastForeignWrite).to.deep.include({
      signer: other.toLowerCase(),
      stage: STAGE,
      intent: "live",
    });
    // Read from the chain alone, for a stage no watch saw.
    const read = await readStageClose(
      provider,
      await score.getAddress(),
      STAGE,
      from,
    );
    expect(read).to.deep.equal(close);
  });
});
