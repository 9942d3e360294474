import { expect } from "chai";

import { BIG_SCORE } from "./fixture.js";
import { escapeHtml, jsonForScript } from "../../tasks/report/escape.js";
import { REPORT_CONTENT_SECURITY_POLICY } from "../../tasks/report/layout.js";
import { shardScript } from "../../tasks/report/shards.js";
import { stagePage } from "../../tasks/report/stage-page.js";
import type { StageView } from "../../tasks/report/view.js";

const HOSTILE = `</script><script>alert("x")</script><img src=x onerror=alert(1)>&amp;'`;

function view(overrides: Partial<StageView> = {}): StageView {
  return {
    stage: 3n,
    state: { final: true },
    files: { csv: "stage-3.final.csv", manifest: "stage-3.manifest.json" },
    manifest: {
      stage: "3",
      final: true,
      policy: {
        name: HOSTILE,
        file: "p.sql",
        fromStage: "1",
        sha256: "ab".repeat(32),
      },
      window: { start: "1767225600", end: "1767312000" },
      output: {
        file: "stage-3.final.csv",
        sha256: "cd".repeat(32),
        addresses: 1,
        total: "5",
      },
    },
    policy: {
      sql: `select 1 -- ${HOSTILE}`,
      file: "p.sql",
    },
    network: "rollup",
    count: 1,
    top: [
      {
        address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        score: BIG_SCORE,
        rank: 1,
        share: "100.0000",
      },
    ],
    total: BIG_SCORE,
    histogram: [],
    ...overrides,
  };
}

describe("scores:report's pages", () => {
  it("escapes every character HTML acts on", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).to.equal(
      "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;",
    );
  });

  it("embeds data a script element cannot be broken out of, read back the same", () => {
    const value = { text: HOSTILE, line: "a\u2028b", comment: "<!-- -->" };
    const json = jsonForScript(value);
    expect(json).to.not.match(/[<>&\u2028]/);
    expect(JSON.parse(json)).to.deep.equal(value);
  });

  it("shows a hostile policy name and SQL as text, never as markup", () => {
    const html = stagePage(view());
    expect(html).to.not.include("<script>alert");
    expect(html).to.not.include("<img src=x");
    expect(html).to.include(
      "&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)",
    );
    // Only the page's own two script elements, each the site's own file:
    // the stages, then the lookup. No inline script at all.
    expect(html.match(/<script/g)).to.have.length(2);
    expect(html.match(/<\/script>/g)).to.have.length(2);
    expect(
      html.match(/<script src="(site|lookup)\.js"><\/script>/g),
    ).to.have.length(2);
  });

  it("forbids every fetch but the site's own scripts, and fits a phone", () => {
    const html = stagePage(view());
    expect(html).to.include(
      `<meta http-equiv="Content-Security-Policy" content="${REPORT_CONTENT_SECURITY_POLICY}">`,
    );
    expect(REPORT_CONTENT_SECURITY_POLICY).to.include("default-src 'none'");
    expect(REPORT_CONTENT_SECURITY_POLICY).to.include("script-src 'self';");
    expect(REPORT_CONTENT_SECURITY_POLICY).to.not.include("script-src 'self' ");
    expect(html).to.include(
      '<meta name="viewport" content="width=device-width',
    );
    expect(html).to.not.match(/https?:\/\//);
    expect(html).to.not.match(/@import|@font-face|<link/);
  });

  it("keeps a score above 2^53 exact, in the page and in the lookup's data", () => {
    const html = stagePage(view());
    // Grouped by thousands, every digit kept.
    expect(html).to.include(">1,152,921,504,730,303,765<");
    expect(BIG_SCORE.toString()).to.equal("1152921504730303765");
    const data = shardScript(3n, 0, [`${"ab".repeat(20)},${BIG_SCORE},1`]);
    expect(data).to.include(`,${BIG_SCORE},1"`);
    expect(Number(BIG_SCORE).toString()).to.not.equal(BIG_SCORE.toString());
  });

  it("says when a stage has no manifest, so no window or policy is known", () => {
    const html = stagePage(
      view({
        manifest: undefined,
        policy: undefined,
        files: { csv: "stage-3.csv" },
      }),
    );
    expect(html).to.include("unknown: no manifest beside the file");
    expect(html).to.include("its policy is not known");
  });
});
