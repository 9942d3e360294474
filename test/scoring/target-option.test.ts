import { expect } from "chai";

import { ERRORS, type ErrorDescriptor } from "../../tasks/error-catalog.js";
import { isVipError } from "../../tasks/errors.js";
import { scoreTargetOf } from "../../tasks/scoring/target-option.js";

// 2026-11-26T15:42:07Z, a Thursday afternoon.
const NOW = 1_795_707_727;
const DAY = 86_400n;
const MIDNIGHT = 1_795_651_200n; // 2026-11-26T00:00:00Z

function refused(
  options: Parameters<typeof scoreTargetOf>[1],
  descriptor: ErrorDescriptor,
  words: RegExp,
): void {
  let error: unknown;
  try {
    scoreTargetOf("scores:compute", options, NOW);
  } catch (e) {
    error = e;
  }
  expect(isVipError(error, descriptor), String(error)).to.equal(true);
  expect(String(error)).to.match(words);
}

describe("--stage or --window: what a scoring command runs over", () => {
  it("takes a stage, as before", () => {
    expect(scoreTargetOf("scores:compute", { stage: "12" }, NOW)).to.deep.equal(
      { kind: "stage", stage: 12n },
    );
  });

  it("takes a window in unix seconds or ISO 8601, UTC unless it says otherwise", () => {
    const cases: [string, bigint, bigint][] = [
      ["1795651200,1795737600", MIDNIGHT, MIDNIGHT + DAY],
      ["2026-11-26,2026-11-27", MIDNIGHT, MIDNIGHT + DAY],
      ["2026-11-26T00:00:00Z, 2026-11-27T00:00:00Z", MIDNIGHT, MIDNIGHT + DAY],
      ["2026-11-26T00:00,2026-11-26T06:30:15", MIDNIGHT, MIDNIGHT + 23_415n],
      // +02:00 is two hours ahead of UTC: its midnight is 22:00 the day before.
      [
        "2026-11-26T00:00:00+02:00,2026-11-26T00:00:00.000Z",
        MIDNIGHT - 7_200n,
        MIDNIGHT,
      ],
      [
        "2026-11-26T00:00:00-0530,1795737600",
        MIDNIGHT + 19_800n,
        MIDNIGHT + DAY,
      ],
    ];
    for (const [window, start, end] of cases)
      expect(
        scoreTargetOf("scores:compute", { window }, NOW),
        window,
      ).to.deep.equal({ kind: "trial", start, end, stageNumber: null });
  });

  it("takes last-14d and last-6h as whole UTC days or hours before the current one", () => {
    expect(
      scoreTargetOf("scores:compute", { window: "last-14d" }, NOW),
    ).to.deep.equal({
      kind: "trial",
      start: MIDNIGHT - 14n * DAY,
      end: MIDNIGHT,
      stageNumber: null,
    });
    const hour = MIDNIGHT + 15n * 3_600n;
    expect(
      scoreTargetOf(
        "scores:compute",
        { window: "last-6h", stageNumber: "9" },
        NOW,
      ),
    ).to.deep.equal({
      kind: "trial",
      start: hour - 6n * 3_600n,
      end: hour,
      stageNumber: 9n,
    });
  });

  it("refuses neither or both, and --stage-number with --stage", () => {
    refused(
      {},
      ERRORS.CONFIG.OPTIONS.SCORE_TARGET_MISSING,
      /neither was given/,
    );
    refused(
      { stage: "3", window: "last-1d" },
      ERRORS.CONFIG.OPTIONS.SCORE_TARGET_MISSING,
      /both were given/,
    );
    refused(
      { stage: "3", stageNumber: "3" },
      ERRORS.CONFIG.OPTIONS.STAGE_NUMBER_WITHOUT_WINDOW,
      /--stage-number 3 goes with --window only/,
    );
    refused(
      { window: "last-1d", stageNumber: "x" },
      ERRORS.CONTRACT.STAGES.STAGE_NOT_NUMBER,
      /--stage x/,
    );
  });

  it("refuses a window that is not one, saying what is wrong", () => {
    const bad: [string, RegExp][] = [
      ["2026-11-26", /two times/],
      ["2026-11-27,2026-11-26", /the end must come after the start/],
      ["5,5", /the end must come after the start/],
      ["2026-02-30,2026-03-02", /the start is not a date and time that exists/],
      ["2026-11-26T24:00:00Z,2026-11-28", /not a date and time that exists/],
      ["2026-11-26T00:00:00.5Z,2026-11-27", /a fraction of a second/],
      [
        "yesterday,today",
        /the start is neither unix seconds nor an ISO 8601 time/,
      ],
      ["1969-12-31,1970-01-02", /before 1970/],
      ["last-0d", /1 hour to 366 days/],
      ["last-400d", /1 hour to 366 days/],
      ["last-2w", /two times/],
      [
        "2026-11-26T00:00:00+25:00,2026-11-27",
        /a zone offset no zone has \(\+25:00\)/,
      ],
      ["2026-11-26T00:00:00+01:99,2026-11-27", /a zone offset no zone has/],
    ];
    for (const [window, words] of bad)
      refused({ window }, ERRORS.CONFIG.OPTIONS.WINDOW_INVALID, words);
  });

  it("prints a hostile --window escaped and cut", () => {
    refused(
      { window: `\u001b[2J${"x".repeat(500)}` },
      ERRORS.CONFIG.OPTIONS.WINDOW_INVALID,
      /\\x1b\[2Jx+… \([\d,]+ more characters\)/,
    );
    let said = "";
    try {
      scoreTargetOf("scores:compute", { window: "\u001b[2J" }, NOW);
    } catch (error) {
      said = String(error);
    }
    expect(said.includes("\u001b")).to.equal(false);
  });
});
