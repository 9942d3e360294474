import path from "node:path";

import { expect } from "chai";

import {
  transferJournalPath,
  type TransferIntent,
  type TransferRecord,
  underWay,
} from "../../tasks/transfer/records.js";
import { outcomeOf, viewStatus } from "../../tasks/transfer/status.js";

const INTENT: TransferIntent = {
  fromChain: "initiation-2",
  fromDenom: "uinit",
  toChain: "minievm-1",
  toDenom: "uinit",
  amount: "1000",
  recipient: "0x0000000000000000000000000000000000000001",
  signer: "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01",
};

describe("a transfer's state", () => {
  it("reads each documented state as what it means for the follower", () => {
    expect(outcomeOf("STATE_COMPLETED_SUCCESS")).to.equal("success");
    expect(outcomeOf("STATE_COMPLETED_ERROR")).to.equal("failure");
    expect(outcomeOf("STATE_PENDING_ERROR")).to.equal("failure");
    expect(outcomeOf("STATE_FAILED")).to.equal("failure");
    expect(outcomeOf("STATE_ABANDONED")).to.equal("abandoned");
    expect(outcomeOf("STATE_UNKNOWN")).to.equal("unknown");
    expect(outcomeOf("STATE_RECEIVED")).to.equal("pending");
    expect(outcomeOf(undefined)).to.equal("pending");
  });

  it("is done only when every transfer it started is", () => {
    const of = (...states: (string | undefined)[]) =>
      viewStatus({
        transfers: states.map((state) => ({ state })),
      }).state;
    expect(of("STATE_COMPLETED_SUCCESS", "STATE_COMPLETED_SUCCESS")).to.equal(
      "STATE_COMPLETED_SUCCESS",
    );
    expect(of("STATE_COMPLETED_SUCCESS", undefined)).to.equal("STATE_PENDING");
    expect(of("STATE_COMPLETED_SUCCESS", "STATE_PENDING_ERROR")).to.equal(
      "STATE_PENDING_ERROR",
    );
    expect(of("STATE_RECEIVED", "STATE_ABANDONED")).to.equal("STATE_ABANDONED");
    expect(of()).to.equal(undefined);
  });

  it("prefers the overall state when the answer gives one", () => {
    const view = viewStatus({
      state: "STATE_COMPLETED_ERROR",
      transfers: [{ state: "STATE_COMPLETED_SUCCESS" }],
    });
    expect(view.outcome).to.equal("failure");
  });
});

describe("a transfer's journal", () => {
  it("is named by the intent, whatever the signer's letter case", () => {
    const file = transferJournalPath("data", INTENT);
    expect(path.dirname(file)).to.equal(path.join("data", "transfers"));
    expect(path.basename(file)).to.match(/^[0-9a-f]{16}\.jsonl$/);
    expect(
      transferJournalPath("data", {
        ...INTENT,
        signer: INTENT.signer.toLowerCase(),
      }),
    ).to.equal(file);
    expect(
      transferJournalPath("data", { ...INTENT, amount: "1001" }),
    ).to.not.equal(file);
  });

  it("is under way once a transaction may be out and was not refused", () => {
    const start: TransferRecord = { type: "start", at: "now", ...INTENT };
    const signed: TransferRecord = {
      type: "cosmos-signed",
      step: "0",
      chainId: "initiation-2",
      signer: "init1x",
      sequence: "1",
      hash: "AA",
      txBytes: "",
    };
    const refused: TransferRecord = {
      type: "refused",
      step: "0",
      hash: "AA",
      code: 5,
      log: "insufficient funds",
    };
    expect(underWay([start])).to.equal(false);
    expect(underWay([start, signed])).to.equal(true);
    expect(underWay([start, signed, refused])).to.equal(false);
  });
});
