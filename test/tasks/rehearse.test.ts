import { expect } from "chai";

import { runHardhat } from "../helpers/hardhat-cli.js";

describe("rehearse", () => {
  it("runs the whole operator flow with no configuration and reports each step", async () => {
    const result = await runHardhat(["rehearse"]);
    expect(result.code, result.output).to.equal(0);
    for (const step of ["[1/8] version", "[2/8] chain-id", "[3/8] stage", "[4/8] deploy", "[5/8] scores:update", "[6/8] read back", "[7/8] stage:finalize", "[8/8] stage"]) {
      expect(result.stdout).to.include(step);
    }
    expect(result.stdout).to.match(/^registry rule\s+holds: /m);
    expect(result.stdout).to.match(/^start stage\s+15 \(the stand-in base chain's VIP stage\)$/m);
    expect(result.stdout).to.match(/^read back\s+1,000 scores, all equal to the file$/m);
    expect(result.stdout).to.match(/^contract open stage\s+16 /m);
    expect(result.stdout).to.include("Rehearsal complete.");
    expect(result.stderr).to.not.include("warning");
  });
});
