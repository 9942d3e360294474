import { expect } from "chai";

import { addr } from "./fixture.js";
import { compareScores } from "../../tasks/compare/compare.js";
import {
  type CompareView,
  PAGE_EVERY_LIMIT,
  PAGE_SHOWN,
} from "../../tasks/compare/page-view.js";
import { comparePage } from "../../tasks/compare/page.js";
import { pairScores } from "../../tasks/compare/paired-scores.js";
import type { ScoreRow } from "../../tasks/scoring/score-rows.js";

function view(
  current: ScoreRow[],
  proposed: ScoreRow[],
  sql: string,
): CompareView {
  const comparison = compareScores(current, proposed, PAGE_SHOWN);
  const policy = (copy: string) => ({
    name: "<i>name</i>",
    fromStage: 3n,
    sha256: "ab".repeat(32),
    sql,
    copy,
  });
  return {
    label: "stage 3",
    window: { start: "1000", end: "2000" },
    blocks: { first: "10", last: "20" },
    state: "final",
    current: policy("current-a.sql"),
    proposed: policy("proposed-b.sql"),
    comparison,
    every:
      comparison.addresses <= PAGE_EVERY_LIMIT
        ? [...pairScores(current, proposed)]
        : undefined,
    csv: "compare.csv",
  };
}

const answer = (count: number, score: (i: number) => bigint): ScoreRow[] =>
  Array.from({ length: count }, (_, i) => ({
    address: addr(i + 1),
    score: score(i),
  }));

describe("scores:compare's page", () => {
  it("lists every address when they are few, with the filter", () => {
    const html = comparePage(
      view(
        answer(3, () => 5n),
        answer(3, (i) => BigInt(i)),
        "select 1",
      ),
    );
    expect(html).to.include('id="every-address"');
    expect(html).to.include('id="address-filter"');
    expect(html.match(/<tr>/g)?.length).to.be.greaterThan(3);
  });

  it("stays small for many addresses: the largest changes only, the CSV named for the rest", () => {
    const count = 20_000;
    const html = comparePage(
      view(
        answer(count, (i) => BigInt(i % 97)),
        answer(count, (i) => BigInt(i % 89)),
        "select 1",
      ),
    );
    expect(html).to.not.include('id="every-address"');
    expect(html).to.not.include("<script>");
    expect(html).to.include("20,000 addresses: too many to list here");
    // Four lists of changes and the top, each cut to PAGE_SHOWN rows.
    expect(html.match(/<tr>/g)?.length).to.be.at.most(5 * (PAGE_SHOWN + 1));
    expect(html.length).to.be.below(100_000);
  });

  it("escapes the policies' names and SQL", () => {
    const sql = "-- </script><b>bold</b> & 'quotes'\nselect 1";
    const html = comparePage(view([], [], sql));
    expect(html).to.include(
      "-- &lt;/script&gt;&lt;b&gt;bold&lt;/b&gt; &amp; &#39;quotes&#39;",
    );
    expect(html).to.include("&lt;i&gt;name&lt;/i&gt;");
    expect(html).to.not.include("<b>bold");
    expect(html).to.not.include("<i>name");
  });
});
