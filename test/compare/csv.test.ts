import { expect } from "chai";

import { addr, rows } from "./fixture.js";
import {
  COMPARE_CSV_HEADER,
  compareCsvChunks,
} from "../../tasks/compare/csv.js";

const [a1, a2, a3, a4] = [1, 2, 3, 4].map(addr) as [
  string,
  string,
  string,
  string,
];

describe("scores:compare's CSV", () => {
  const current = rows({ [a1]: 50n, [a2]: 0n, [a3]: 7n });
  const proposed = rows({ [a1]: 24n, [a3]: 7n, [a4]: 40n });
  // Totals 57 and 71.
  const totals = { before: 57n, after: 71n };

  it("writes every address of either answer, in address order, shares as exact fractions", () => {
    const text = [...compareCsvChunks(current, proposed, totals)].join("");
    expect(text.split("\n")).to.deep.equal([
      COMPARE_CSV_HEADER,
      // 50/57 = 87.71929…%, 24/71 = 33.80281…%; 24 < 25: below.
      `${a1},50,24,-26,50/57,24/71,87.7193,33.8028,changed,yes`,
      `${a2},0,0,0,0,0,0.0000,0.0000,unscored,no`,
      // 7/57 = 12.28070…%, 7/71 = 9.85915…%.
      `${a3},7,7,0,7/57,7/71,12.2807,9.8592,unchanged,no`,
      `${a4},0,40,40,0,40/71,0.0000,56.3380,gained,no`,
      "",
    ]);
  });

  it("gives the same text in chunks of any size", () => {
    const whole = [...compareCsvChunks(current, proposed, totals)].join("");
    for (const size of [1, 2, 3, 100]) {
      const chunks = [...compareCsvChunks(current, proposed, totals, size)];
      expect(chunks.join(""), `chunks of ${size}`).to.equal(whole);
      expect(chunks.length).to.equal(Math.ceil(5 / size));
    }
  });

  it("writes only the header when neither policy names anyone", () => {
    const text = [...compareCsvChunks([], [], { before: 0n, after: 0n })].join(
      "",
    );
    expect(text).to.equal(`${COMPARE_CSV_HEADER}\n`);
  });
});
