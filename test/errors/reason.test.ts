import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { messageOf, reasonOf, VipError } from "../../tasks/errors.js";

describe("an error as text: messageOf and reasonOf", () => {
  const listed = new VipError(ERRORS.CONFIG.OPTIONS.OPTION_REQUIRED, {
    option: "--stage",
    what: "a stage:\n  one\n  two",
  });
  const plain = new Error("first:\n  second\nthird");

  it("messageOf gives the whole message, a VipError's without its code", () => {
    expect(messageOf(listed)).to.equal(listed.text);
    expect(messageOf(listed)).not.to.match(/VIP-E/);
    expect(messageOf(plain)).to.equal("first:\n  second\nthird");
    expect(messageOf("not an error")).to.equal("not an error");
  });

  it("reasonOf's three forms: the first line, with the code, or the whole on one line", () => {
    const firstLine = listed.text.split("\n", 1)[0];
    expect(reasonOf(listed)).to.equal(firstLine);
    expect(reasonOf(listed, "with code")).to.equal(
      `${listed.code}: ${firstLine}`,
    );
    expect(reasonOf(listed, "one line")).not.to.include("\n");
    expect(reasonOf(listed, "one line")).to.include("a stage: one; two");
    expect(reasonOf(plain, "one line")).to.equal("first: second; third");
    expect(reasonOf(plain, "with code")).to.equal("first:");
    expect(reasonOf(42)).to.equal("42");
  });
});
