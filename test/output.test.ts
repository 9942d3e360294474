import { expect } from "chai";

import { ERRORS } from "../tasks/error-catalog.js";
import { VipError } from "../tasks/errors.js";
import { counted, printable, safeText } from "../tasks/output.js";

describe("printing untrusted text safely", () => {
  it("escapes every character a terminal would act on", () => {
    expect(safeText("\u001b[2J\naudit holds\r")).to.equal(
      "\\x1b[2J\\naudit holds\\r",
    );
    expect(safeText("a\u0000b\u007fc\u009bd")).to.equal("a\\x00b\\x7fc\\x9bd");
    // Bidi overrides and line separators reorder or break what is shown.
    expect(safeText("x\u202ey\u2066z\u2028")).to.equal(
      "x\\u{202e}y\\u{2066}z\\u{2028}",
    );
    expect(safeText("plain 0xabc, ünïcode ✓")).to.equal(
      "plain 0xabc, ünïcode ✓",
    );
  });

  it("cuts a long value, saying how much was left out, never halfway through a character", () => {
    expect(safeText("a".repeat(1_000), 10)).to.equal(
      "aaaaaaaaaa… (990 more characters)",
    );
    const emoji = "😀".repeat(10); // two UTF-16 units each
    expect(safeText(emoji, 5)).to.equal("😀😀… (16 more characters)");
  });

  it("keeps the tool's own line breaks, and an error's message can hold no escape", () => {
    expect(printable("one\ntwo\u001b[1A")).to.equal("one\ntwo\\x1b[1A");
    const error = new VipError(ERRORS.SCORING.POLICY_FILES.POLICY_NOT_FOUND, {
      path: "bad \u001b[2J value\nnext",
    });
    expect(error.code).to.equal("VIP-E5001");
    expect(error.params.path).to.equal("bad \u001b[2J value\nnext");
    expect(error.message).to.match(/^VIP-E5001: /);
    expect(error.message).to.include("bad \\x1b[2J value\nnext");
    // eslint-disable-next-line no-control-regex -- none may get through
    expect(error.message).to.not.match(/[\u0000-\u0009\u000b-\u001f]/);
  });
});

describe("counts in English", () => {
  it("says one of a noun in the singular and any other count in the plural, grouped", () => {
    expect(counted(1, "batch", "batches")).to.equal("1 batch");
    expect(counted(2, "batch", "batches")).to.equal("2 batches");
    expect(counted(0, "address", "addresses")).to.equal("0 addresses");
    expect(counted(1n, "score")).to.equal("1 score");
    expect(counted(1000, "log")).to.equal("1,000 logs");
    expect(counted(10n ** 6n, "address", "addresses")).to.equal(
      "1,000,000 addresses",
    );
  });
});
