import { expect } from "chai";

import { nextPollSeconds } from "../../tasks/autopilot/schedule.js";
import type { VipProgram } from "../../tasks/clients/l1-rest.js";
import {
  describeTiming,
  openStageTiming,
} from "../../tasks/program/stage-timing.js";

// Stage 10 runs [1,000,000, 1,086,400): one testnet day.
const program: VipProgram = {
  stage: 10n,
  stageStartTime: 1_000_000n,
  stageEndTime: 1_086_400n,
  stageInterval: 86_400n,
};
const END = 1_086_400n;
const GRACE = 3_600n;

describe("the stage schedule: when the contract's open stage is due", () => {
  const table: {
    name: string;
    open: bigint;
    now: bigint;
    due: boolean;
    endTime: bigint;
    basis: string;
    atRisk: boolean;
    late: boolean;
  }[] = [
    {
      name: "the program's stage, running",
      open: 10n,
      now: END - 60n,
      due: false,
      endTime: END,
      basis: "current",
      atRisk: false,
      late: false,
    },
    {
      name: "the program's stage, one second before its end",
      open: 10n,
      now: END - 1n,
      due: false,
      endTime: END,
      basis: "current",
      atRisk: false,
      late: false,
    },
    {
      name: "the program's stage, at its end to the second",
      open: 10n,
      now: END,
      due: true,
      endTime: END,
      basis: "current",
      atRisk: false,
      late: false,
    },
    {
      name: "ended, within half the grace",
      open: 10n,
      now: END + 1_799n,
      due: true,
      endTime: END,
      basis: "current",
      atRisk: false,
      late: false,
    },
    {
      name: "ended, half the grace gone: at risk",
      open: 10n,
      now: END + 1_800n,
      due: true,
      endTime: END,
      basis: "current",
      atRisk: true,
      late: false,
    },
    {
      name: "ended, the grace gone: late",
      open: 10n,
      now: END + 3_600n,
      due: true,
      endTime: END,
      basis: "current",
      atRisk: true,
      late: true,
    },
    // The agent has not advanced the counter yet, but stage 10 is over: due by
    // the clock.
    {
      name: "the agent is late: the counter still says 10",
      open: 10n,
      now: END + 100_000n,
      due: true,
      endTime: END,
      basis: "current",
      atRisk: true,
      late: true,
    },
    // The program is past the open stage: overdue, whatever the clock; its end
    // is the previous windows'.
    {
      name: "behind the program by one",
      open: 9n,
      now: END - 60n,
      due: true,
      endTime: 1_000_000n,
      basis: "past",
      atRisk: true,
      late: true,
    },
    {
      name: "behind the program by three",
      open: 7n,
      now: 1_000_100n,
      due: true,
      endTime: 1_000_000n - 2n * 86_400n,
      basis: "past",
      atRisk: true,
      late: true,
    },
    // Finalized ahead of the counter (right after the stage ended): the next
    // window is projected.
    {
      name: "ahead of the counter, its window running",
      open: 11n,
      now: END + 10n,
      due: false,
      endTime: END + 86_400n,
      basis: "projected",
      atRisk: false,
      late: false,
    },
    {
      name: "ahead of the counter, its window over too",
      open: 11n,
      now: END + 86_400n,
      due: true,
      endTime: END + 86_400n,
      basis: "projected",
      atRisk: false,
      late: false,
    },
  ];
  for (const row of table) {
    it(row.name, () => {
      const timing = openStageTiming(program, row.now, row.open, GRACE);
      expect(timing).to.deep.equal({
        stage: row.open,
        endTime: row.endTime,
        basis: row.basis,
        due: row.due,
        secondsLeft: row.endTime - row.now,
        atRisk: row.atRisk,
        late: row.late,
      });
    });
  }

  it("polls sooner as the end nears, never sooner than a second, and at the interval once due", () => {
    const at = (now: bigint) => ({
      timing: openStageTiming(program, now, 10n, GRACE),
    });
    expect(nextPollSeconds(at(END - 3_600n), 60)).to.equal(60);
    expect(nextPollSeconds(at(END - 7n), 60)).to.equal(7);
    expect(nextPollSeconds(at(END - 1n), 60)).to.equal(1);
    expect(nextPollSeconds(at(END + 5n), 60)).to.equal(60);
    expect(nextPollSeconds({}, 30)).to.equal(30);
  });

  it("polls a standby no later than the moment it would act", () => {
    const timing = openStageTiming(program, END + 5n, 10n, GRACE);
    const standby = (until: bigint) => ({
      timing,
      chainTime: END + 5n,
      standingByUntil: until,
    });
    expect(nextPollSeconds(standby(END + 300n), 60)).to.equal(60);
    expect(nextPollSeconds(standby(END + 20n), 60)).to.equal(15);
    expect(nextPollSeconds(standby(END + 5n), 60)).to.equal(1);
  });

  it("says the end and what it means in words", () => {
    expect(
      describeTiming(openStageTiming(program, END - 3_720n, 10n, GRACE)),
    ).to.equal("1970-01-13T13:46:40Z (in 1 h 2 min)");
    expect(
      describeTiming(openStageTiming(program, END + 300n, 10n, GRACE)),
    ).to.equal("1970-01-13T13:46:40Z (ended 5 min ago: due)");
    expect(
      describeTiming(openStageTiming(program, END + 2_000n, 10n, GRACE)),
    ).to.equal("1970-01-13T13:46:40Z (ended 33 min 20 s ago: due, at risk)");
    expect(
      describeTiming(openStageTiming(program, END + 10n, 11n, GRACE)),
    ).to.equal(
      "1970-01-14T13:46:40Z (in 23 h 59 min, projected: the program's counter has not reached it yet)",
    );
  });
});
