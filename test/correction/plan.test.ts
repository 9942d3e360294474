import { expect } from "chai";

import {
  challengedStages,
  challengeWindow,
  proposalChoice,
  TIGHT_SECONDS,
} from "../../tasks/correction/plan.js";
import {
  type CorrectionState,
  type CorrectionStep,
  nextCorrectionStep,
} from "../../tasks/correction/replay.js";

const DAY = 86_400n;
const NOW = 2_000_000_000n;
const PERIOD = 3n * DAY;

describe("a correction's challenge windows and proposals, as pure functions", () => {
  it("reads a stage's window from its snapshot: none, open and in time, tight, too late, closed", () => {
    expect(challengeWindow(5n, undefined, PERIOD, NOW, DAY)).to.deep.equal({
      stage: 5n,
      state: "no-snapshot",
      passesInTime: false,
      tight: false,
    });
    const open = challengeWindow(5n, NOW - DAY, PERIOD, NOW, DAY);
    expect(open).to.deep.include({
      state: "open",
      deadline: NOW + 2n * DAY,
      passesInTime: true,
      tight: false,
    });
    // The vote ends with less than TIGHT_SECONDS to spare.
    const tight = challengeWindow(
      5n,
      NOW - 2n * DAY + TIGHT_SECONDS - 1n,
      PERIOD,
      NOW,
      DAY,
    );
    expect(tight).to.deep.include({
      state: "open",
      passesInTime: true,
      tight: true,
    });
    // The vote ends after the deadline: the challenge would abort, and the
    // update with it.
    const late = challengeWindow(5n, NOW - 2n * DAY - 10n, PERIOD, NOW, DAY);
    expect(late).to.deep.include({
      state: "open",
      passesInTime: false,
      tight: false,
    });
    // At the deadline the chain refuses: `create_time + period <= now`.
    expect(challengeWindow(5n, NOW - PERIOD, PERIOD, NOW, DAY).state).to.equal(
      "closed",
    );
    expect(
      challengeWindow(5n, NOW - PERIOD + 1n, PERIOD, NOW, DAY).state,
    ).to.equal("open");
  });

  it("chooses the proposals: full, full and update-only when a deadline is near, update-only when none can pass", () => {
    const open = challengeWindow(5n, NOW - DAY, PERIOD, NOW, DAY);
    const tight = challengeWindow(6n, NOW - 2n * DAY + 60n, PERIOD, NOW, DAY);
    const closed = challengeWindow(4n, NOW - 4n * DAY, PERIOD, NOW, DAY);
    const none = challengeWindow(7n, undefined, PERIOD, NOW, DAY);
    expect(proposalChoice([open, none])).to.equal("full");
    expect(proposalChoice([open, tight])).to.equal("full-and-update-only");
    expect(proposalChoice([closed, none])).to.equal("update-only");
    expect(proposalChoice([])).to.equal("update-only");
    expect(challengedStages([closed, open, tight, none])).to.deep.equal([
      5n,
      6n,
    ]);
  });
});

describe("a correction's next step (nextCorrectionStep), from every state a kill can leave", () => {
  const base = { first: 5n, last: 6n, switched: false };
  const rows: [string, CorrectionState, CorrectionStep][] = [
    ["nothing done: deploy", base, { kind: "deploy" }],
    [
      "deployed, nothing replayed: the first stage",
      { ...base, deployed: "0xnew", newOpenStage: 5n },
      { kind: "replay", stage: 5n },
    ],
    [
      "killed after the first finalization: the next stage",
      { ...base, deployed: "0xnew", newOpenStage: 6n },
      { kind: "replay", stage: 6n },
    ],
    [
      "every stage finalized: switch",
      { ...base, deployed: "0xnew", newOpenStage: 7n },
      { kind: "switch" },
    ],
    [
      "switched: done",
      { ...base, deployed: "0xnew", newOpenStage: 7n, switched: true },
      { kind: "done" },
    ],
    [
      "a one-stage correction",
      {
        first: 5n,
        last: 5n,
        switched: false,
        deployed: "0xnew",
        newOpenStage: 5n,
      },
      { kind: "replay", stage: 5n },
    ],
  ];
  for (const [says, state, step] of rows)
    it(says, () => expect(nextCorrectionStep(state)).to.deep.equal(step));
});
