import { readFile } from "node:fs/promises";
import path from "node:path";

import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { isVipError } from "../../tasks/errors.js";
import { parsePolicy } from "../../tasks/policy/parse.js";
import { checkPolicies } from "../../tasks/scoring/check-policy.js";
import { DEFAULT_POLICY_BOUNDS } from "../../tasks/scoring/sandbox.js";

const HOSTILE = path.join(
  import.meta.dirname,
  "..",
  "corpus",
  "hostile-policies",
);
const HEADER = `-- @policy good
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
`;

describe("checking policies before anything is read", () => {
  it("names each refusal with its own policy, also when one runs past its bound", async () => {
    const good = parsePolicy(
      "good.sql",
      `${HEADER}select trader as address, sum(notional) // 2 as score from trades group by trader\n`,
    );
    const floating = parsePolicy(
      "floating.sql",
      `${HEADER}select trader as address, sum(notional) / 2 as score from trades group by trader\n`,
    );
    // Folds a constant forever while it is bound: past its time bound, the
    // engine is interrupted, or its process killed when it cannot be.
    const endless = parsePolicy(
      "endless.sql",
      await readFile(path.join(HOSTILE, "endless-constant.sql"), "utf8"),
    );
    const results = await checkPolicies([good, endless, floating, good], {
      ...DEFAULT_POLICY_BOUNDS,
      timeoutSeconds: 2,
    });
    expect(results.map((r) => r.policy.file)).to.deep.equal([
      "good.sql",
      "endless.sql",
      "floating.sql",
      "good.sql",
    ]);
    const [first, second, third, fourth] = results;
    expect(first !== undefined && "check" in first).to.equal(true);
    expect(fourth !== undefined && "check" in fourth).to.equal(true);
    const timedOut =
      second !== undefined && "refused" in second ? second.refused : undefined;
    expect(
      isVipError(timedOut, ERRORS.SCORING.RUN.POLICY_TIMEOUT) ||
        isVipError(timedOut, ERRORS.SCORING.RUN.POLICY_TIMEOUT_KILLED),
      String(timedOut),
    ).to.equal(true);
    expect(String(timedOut)).to.contain("endless.sql");
    expect(String(timedOut)).to.not.contain("good.sql");
    const inexact =
      third !== undefined && "refused" in third ? third.refused : undefined;
    expect(
      isVipError(inexact, ERRORS.SCORING.ADMISSION.POLICY_FLOATING),
      String(inexact),
    ).to.equal(true);
    expect(String(inexact)).to.match(/floating\.sql:4:\d+: \/ 2/);
  });
});
