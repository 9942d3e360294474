import { expect } from "chai";

import { runHardhat } from "../helpers/hardhat-cli.js";

describe("rehearse", () => {
  it("runs the whole operator flow with no configuration and reports each step", async () => {
    const result = await runHardhat(["rehearse"]);
    expect(result.code, result.output).to.equal(0);
    for (const step of ["[1/7] version", "[2/7] chain-id", "[3/7] stage", "[4/7] deploy", "[5/7] scores:update", "[6/7] stage:finalize", "[7/7] stage"]) {
      expect(result.stdout).to.include(step);
    }
    expect(result.stdout).to.match(/^registry rule\s+holds: /m);
    expect(result.stdout).to.match(/^start stage\s+15 \(the stand-in base chain's VIP stage\)$/m);
    expect(result.stdout).to.match(/^verified\s+1,000 scores on chain equal scripts\/sample-scores\.csv$/m);
    expect(result.stdout).to.match(/^contract open stage\s+16 /m);
    expect(result.stdout).to.include("Rehearsal complete.");
    expect(result.stderr).to.not.include("warning");
  });
});
