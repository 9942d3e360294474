import { execFileSync } from "node:child_process";

import { expect } from "chai";

import { shellWord } from "../../tasks/report/format.js";

describe("a word of the commands the pages print to copy", () => {
  it("stays as it is when no shell reads anything into it", () => {
    for (const word of ["rollup", "my-rollup", "policies/0a1b/p.sql", "a_b.c"])
      expect(shellWord(word)).to.equal(word);
  });

  it("is quoted otherwise, and a shell reads back exactly the word", () => {
    for (const word of [
      "my rollup",
      "it's",
      "$(touch /tmp/x)",
      "`id`",
      "a;b",
      "''",
      "a\nb",
    ]) {
      const quoted = shellWord(word);
      expect(quoted, word).to.not.equal(word);
      expect(
        execFileSync("sh", ["-c", `printf %s ${quoted}`], { encoding: "utf8" }),
        word,
      ).to.equal(word);
    }
  });
});
