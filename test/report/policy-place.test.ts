import { expect } from "chai";

import { policyPlaces } from "../../tasks/report/policy-place.js";

const SHA = (digit: string) => digit.repeat(64);

describe("where the report publishes each stage's policy", () => {
  it("keeps the manifest's name for a .sql file, the first stage's when two share it", () => {
    const first = { file: "perp.sql", sha256: SHA("a") };
    const edited = { file: "perp.sql", sha256: SHA("b") };
    const placeOf = policyPlaces([first, edited, first]);
    expect(placeOf(first)).to.equal("perp.sql");
    expect(placeOf(edited)).to.equal(`policies/${"b".repeat(16)}/perp.sql`);
  });

  it("never publishes a policy under a name a host would serve as a page or a script", () => {
    for (const file of ["policy.html", "x.svg", "lookup.js", "site.JS", "a"]) {
      const policy = { file, sha256: SHA("c") };
      const place = policyPlaces([policy])(policy);
      expect(place, file).to.equal(`policies/${"c".repeat(16)}/${file}.sql`);
      expect(place, file).to.match(/\.sql$/);
    }
  });

  it("tells names apart without case, as a case-insensitive disk stores them", () => {
    const upper = { file: "Perp.sql", sha256: SHA("d") };
    const lower = { file: "perp.sql", sha256: SHA("e") };
    const placeOf = policyPlaces([upper, lower]);
    expect(placeOf(upper)).to.equal("Perp.sql");
    expect(placeOf(lower)).to.equal(`policies/${"e".repeat(16)}/perp.sql`);
  });
});
