import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { anchorsOf, brokenLinks, githubSlug } from "./markdown-links.js";
import { PROJECT_ROOT } from "../helpers/hardhat-cli.js";

function markdownUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return markdownUnder(file);
    return entry.name.endsWith(".md") ? [file] : [];
  });
}

/** The pages a reader follows: the README, CONTRIBUTING.md and docs/. */
const PAGES = [
  path.join(PROJECT_ROOT, "README.md"),
  path.join(PROJECT_ROOT, "CONTRIBUTING.md"),
  ...markdownUnder(path.join(PROJECT_ROOT, "docs")),
];

describe("the documentation's links", () => {
  it("resolve: every relative file exists and every #anchor is a heading of its page", () => {
    const broken = PAGES.flatMap((file) =>
      brokenLinks(file).map(
        (problem) => `${path.relative(PROJECT_ROOT, file)}: ${problem}`,
      ),
    );
    expect(broken).to.deep.equal([]);
  });

  it("are read from every page: README.md, CONTRIBUTING.md and docs/, its generated pages included", () => {
    const relative = PAGES.map((file) => path.relative(PROJECT_ROOT, file));
    expect(relative).to.include.members([
      "README.md",
      "CONTRIBUTING.md",
      "docs/errors.md",
      "docs/tasks/README.md",
      "docs/tasks/scores-update.md",
    ]);
  });

  it("make anchors as GitHub does", () => {
    expect(githubSlug("Set-up")).to.equal("set-up");
    expect(githubSlug("Scores from the rollup's activity")).to.equal(
      "scores-from-the-rollups-activity",
    );
    expect(githubSlug("Preview a change: `scores:compare`")).to.equal(
      "preview-a-change-scorescompare",
    );
    expect(githubSlug("A stage of 100,000 users, safely")).to.equal(
      "a-stage-of-100000-users-safely",
    );
    expect(githubSlug("1. Volume × weight with leverage tiers")).to.equal(
      "1-volume--weight-with-leverage-tiers",
    );
    expect(githubSlug("VIP-E1001: NOT_A_URL")).to.equal("vip-e1001-not_a_url");
    expect([
      ...anchorsOf("# Notes\n\n## Notes\n\n```\n# not a heading\n```\n"),
    ]).to.deep.equal(["notes", "notes-1"]);
  });

  it("finds a missing file and a missing anchor, and leaves code and external links alone", () => {
    const folder = mkdtempSync(path.join(tmpdir(), "links-"));
    try {
      writeFileSync(path.join(folder, "other.md"), "# Other page\n");
      const page = path.join(folder, "page.md");
      writeFileSync(
        page,
        [
          "# Page",
          "",
          "[fine](other.md#other-page), [here](#page), [web](https://example.invalid/x#y)",
          "[gone](missing.md), [no anchor](other.md#nowhere),",
          "[no anchor here](#nowhere)",
          "`[in code](missing-in-code.md)`",
          "```md",
          "[in a block](missing-in-block.md)",
          "```",
          "",
        ].join("\n"),
      );
      expect(brokenLinks(page)).to.deep.equal([
        "missing.md: no such file",
        "other.md#nowhere: no heading has the anchor #nowhere",
        "#nowhere: no heading has the anchor #nowhere",
      ]);
    } finally {
      rmSync(folder, { recursive: true });
    }
  });
});
