import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

import { expect } from "chai";

import { ERRORS_DOC, renderErrorsDoc } from "../../scripts/errors-doc.js";
import { catalogEntries, ERROR_CATEGORIES } from "../../tasks/error-catalog.js";
import { isVipError, VipError } from "../../tasks/errors.js";
import { PROJECT_ROOT } from "../helpers/hardhat-cli.js";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return file.endsWith(".ts") ? [file] : [];
  });
}

const entries = catalogEntries();

describe("the error catalog", () => {
  it("gives every error its own number, within its category's range", () => {
    const numbers = entries.map(({ descriptor }) => descriptor.number);
    expect(new Set(numbers).size).to.equal(numbers.length);
    for (const { category, name, descriptor } of entries) {
      const range = ERROR_CATEGORIES[category];
      expect(descriptor.number, `${category}.${name}`).to.be.within(
        range.min,
        range.max,
      );
      expect(descriptor.cause, `${category}.${name}`).to.not.equal("");
      expect(descriptor.fix, `${category}.${name}`).to.not.equal("");
    }
  });

  it("files every error under a named sub-category of its category, none of them empty", () => {
    for (const [category, { sub }] of Object.entries(ERROR_CATEGORIES))
      for (const subcategory of Object.keys(sub))
        expect(
          entries.filter(
            (e) => e.category === category && e.subcategory === subcategory,
          ),
          `${category}.${subcategory}`,
        ).to.have.length.above(0);
    for (const { category, subcategory, name } of entries)
      expect(
        Object.keys(ERROR_CATEGORIES[category].sub),
        `${category}.${subcategory}.${name}`,
      ).to.include(subcategory);
  });

  it("is what docs/errors.md lists", () => {
    expect(readFileSync(ERRORS_DOC, "utf8")).to.equal(renderErrorsDoc());
  });

  it("has no entry the code never throws, and no error outside it", () => {
    const code = sources(path.join(PROJECT_ROOT, "tasks"))
      .filter((file) => !file.includes(`${path.sep}error-catalog`))
      .map((file) => readFileSync(file, "utf8"))
      .join("\n");
    for (const { category, subcategory, name } of entries)
      expect(code, `ERRORS.${category}.${subcategory}.${name}`).to.match(
        new RegExp(`ERRORS\\.${category}\\.${subcategory}\\.${name}\\b`),
      );
    expect(code).to.not.match(/new VipError\(\s*[`"']/);
  });

  it("prints the code first, fills the template and tells errors apart by it", () => {
    const [first] = entries;
    if (first === undefined) return;
    const error = new VipError(first.descriptor, {});
    expect(error.message).to.match(/^VIP-E\d{4}: /);
    expect(isVipError(error, first.descriptor)).to.equal(true);
    expect(isVipError(new Error(error.message), first.descriptor)).to.equal(
      false,
    );
  });
});
