import { expect } from "chai";

import {
  decideNext,
  type PassView,
  type Role,
  type Step,
  type StageWork,
  type StepKind,
} from "../../tasks/autopilot/decide.js";
import { openStageTiming } from "../../tasks/program/stage-timing.js";

const END = 1_800_001_000n;
const INTERVAL = 1_000n;
const GRACE = 3_600n;
const program = {
  stage: 5n,
  stageStartTime: END - INTERVAL,
  stageEndTime: END,
  stageInterval: INTERVAL,
};
const PRIMARY: Role = { kind: "primary" };
const STANDBY: Role = { kind: "standby", afterSeconds: 300n };
const SHA = "a".repeat(64);
const OTHER_SHA = "b".repeat(64);

/** What a pass sees of stage 5 at base-chain time `now`, with `work` over the defaults. */
function view(
  now: bigint,
  role: Role,
  work: Partial<StageWork> = {},
  extra: Partial<PassView> = {},
): PassView {
  return {
    role,
    timing: openStageTiming(program, now, 5n, GRACE),
    chainTime: now,
    nowMs: 1_000_000,
    liveMarginSeconds: 60n,
    work: {
      stage: 5n,
      liveChanged: false,
      final: { kind: "unknown" },
      tookOver: false,
      blocked: false,
      ...work,
    },
    ...extra,
  };
}

/** Fields of a fenced stage whose final file is ready and proved at write count 3. */
const PROVED: Partial<StageWork> = {
  final: { kind: "ready", sha256: SHA },
  disagreement: "none",
  proof: { sha256: SHA, final: true, block: 40, writeCount: 3n },
  writeCount: 3n,
};
const POLICY = { computeIntervalSeconds: 600 };

interface Row {
  says: string;
  view: PassView;
  tried?: [StepKind, number][];
  step: Step;
}

const ROWS: Row[] = [
  // While the stage runs.
  {
    says: "the primary pushes a changed live file while the stage runs",
    view: view(END - 500n, PRIMARY, { liveChanged: true }),
    step: { kind: "push-live" },
  },
  {
    says: "the primary pushes nothing within the live margin of the end",
    view: view(END - 60n, PRIMARY, { liveChanged: true }),
    step: { kind: "wait" },
  },
  {
    says: "the primary waits when the live file is the one it pushed",
    view: view(END - 500n, PRIMARY),
    step: { kind: "wait" },
  },
  {
    says: "a live file is pushed once per pass",
    view: view(END - 500n, PRIMARY, { liveChanged: true }),
    tried: [["push-live", 1]],
    step: { kind: "wait" },
  },
  {
    says: "with a policy, the live scores are computed when none were",
    view: view(END - 500n, PRIMARY, {}, POLICY),
    step: { kind: "compute-live" },
  },
  {
    says: "with a policy, the live scores wait for their interval",
    view: view(END - 500n, PRIMARY, { liveComputedAtMs: 900_000 }, POLICY),
    step: { kind: "wait" },
  },
  {
    says: "with a policy, the live scores are computed again after the interval",
    view: view(
      END - 500n,
      PRIMARY,
      { liveComputedAtMs: 1_000_000 - 600_000 },
      POLICY,
    ),
    step: { kind: "compute-live" },
  },
  {
    says: "a standby computes its live scores (its index kept current) but never pushes them",
    view: view(END - 500n, STANDBY, { liveChanged: true }, POLICY),
    step: { kind: "compute-live" },
  },
  {
    says: "a standby stands by while the stage runs, until its end plus --standby-after",
    view: view(
      END - 500n,
      STANDBY,
      { liveChanged: true, liveComputedAtMs: 999_000 },
      POLICY,
    ),
    step: { kind: "stand-by", until: END + 300n },
  },
  // Once the stage has ended.
  {
    says: "the primary computes the final file at the end (a policy)",
    view: view(END, PRIMARY, {}, POLICY),
    step: { kind: "compute-final" },
  },
  {
    says: "the primary reads the final file at the end (a scoring job's)",
    view: view(END, PRIMARY),
    step: { kind: "read-final" },
  },
  {
    says: "a missing, invalid or uncomputable final file blocks the stage",
    view: view(END + 10n, PRIMARY, { final: { kind: "missing" } }),
    step: { kind: "blocked" },
  },
  {
    says: "a policy's final file that waits for the rollup blocks the stage for this pass",
    view: view(END + 10n, PRIMARY, { final: { kind: "waiting" } }, POLICY),
    step: { kind: "blocked" },
  },
  {
    says: "with the final file ready, the stage's writes are read before anything is pushed",
    view: view(END + 10n, PRIMARY, { final: { kind: "ready", sha256: SHA } }),
    step: { kind: "check-writes" },
  },
  {
    says: "another host's differing final scores block the stage (no tug of war)",
    view: view(END + 10n, PRIMARY, {
      final: { kind: "ready", sha256: SHA },
      disagreement: "found",
    }),
    step: { kind: "blocked" },
  },
  {
    says: "with no proof yet, the final file is pushed and proved",
    view: view(END + 10n, PRIMARY, {
      final: { kind: "ready", sha256: SHA },
      disagreement: "none",
      writeCount: 2n,
    }),
    step: { kind: "push-final", again: false },
  },
  {
    says: "a proof of another file (the live one) is no proof of the final one",
    view: view(END + 10n, PRIMARY, {
      ...PROVED,
      proof: { sha256: OTHER_SHA, final: true, block: 40, writeCount: 3n },
    }),
    step: { kind: "push-final", again: false },
  },
  {
    says: "a live push of the same content proves the chain but is no final claim: pushed again as final",
    view: view(END + 10n, PRIMARY, {
      ...PROVED,
      proof: { sha256: SHA, final: false, block: 40, writeCount: 3n },
    }),
    step: { kind: "push-final", again: false },
  },
  {
    says: "a proved final file is finalized, fenced by the proof's write count",
    view: view(END + 10n, PRIMARY, PROVED),
    step: { kind: "finalize", writeCount: 3n },
  },
  {
    says: "a write after the proof (a paused host's stale push) sends the final file again",
    view: view(END + 10n, PRIMARY, { ...PROVED, writeCount: 4n }),
    step: { kind: "push-final", again: true },
  },
  {
    says: "a proof without a write count on a fenced contract is no fence: pushed again",
    view: view(END + 10n, PRIMARY, {
      ...PROVED,
      proof: { sha256: SHA, final: true, block: 40 },
    }),
    step: { kind: "push-final", again: true },
  },
  {
    says: "without the fence, a proof with nothing written after its block is finalized plainly",
    view: view(END + 10n, PRIMARY, {
      ...PROVED,
      proof: { sha256: SHA, final: true, block: 40 },
      writeCount: undefined,
      writtenSinceProof: false,
    }),
    step: { kind: "finalize" },
  },
  {
    says: "without the fence, a write after the proof's block sends the final file again",
    view: view(END + 10n, PRIMARY, {
      ...PROVED,
      writeCount: undefined,
      writtenSinceProof: true,
    }),
    step: { kind: "push-final", again: true },
  },
  {
    says: "without the fence, what cannot be told counts as written",
    view: view(END + 10n, PRIMARY, {
      ...PROVED,
      proof: { sha256: SHA, final: true },
      writeCount: undefined,
    }),
    step: { kind: "push-final", again: true },
  },
  {
    says: "a third push in one pass is refused: something keeps writing the stage",
    view: view(END + 10n, PRIMARY, { ...PROVED, writeCount: 9n }),
    tried: [["push-final", 2]],
    step: { kind: "blocked" },
  },
  {
    says: "a third finalization in one pass is refused",
    view: view(END + 10n, PRIMARY, PROVED),
    tried: [["finalize", 2]],
    step: { kind: "blocked" },
  },
  {
    says: "a step that failed in this pass blocks the rest of it",
    view: view(END + 10n, PRIMARY, { ...PROVED, blocked: true }),
    step: { kind: "blocked" },
  },
  // A standby once the stage has ended.
  {
    says: "a standby sends nothing before its time, even with a proved file",
    view: view(END + 299n, STANDBY, PROVED),
    step: { kind: "stand-by", until: END + 300n },
  },
  {
    says: "a standby readies its final file while standing by (a policy)",
    view: view(END + 10n, STANDBY, {}, POLICY),
    step: { kind: "compute-final" },
  },
  {
    says: "a standby whose final file is ready stands by",
    view: view(
      END + 10n,
      STANDBY,
      { final: { kind: "ready", sha256: SHA } },
      POLICY,
    ),
    step: { kind: "stand-by", until: END + 300n },
  },
  {
    says: "a standby whose final computation waits for the rollup stands by",
    view: view(END + 10n, STANDBY, { final: { kind: "waiting" } }, POLICY),
    step: { kind: "stand-by", until: END + 300n },
  },
  {
    says: "a standby at its time, with the stage still open, takes it over",
    view: view(END + 300n, STANDBY, { final: { kind: "ready", sha256: SHA } }),
    step: { kind: "take-over" },
  },
  {
    says: "a standby that took the stage over does what the primary would: the writes first",
    view: view(END + 300n, STANDBY, {
      final: { kind: "ready", sha256: SHA },
      tookOver: true,
    }),
    step: { kind: "check-writes" },
  },
  {
    says: "a standby that took over finalizes a proved stage, fenced",
    view: view(END + 400n, STANDBY, { ...PROVED, tookOver: true }),
    step: { kind: "finalize", writeCount: 3n },
  },
  {
    says: "a standby that took over stops on the primary's differing final scores",
    view: view(END + 400n, STANDBY, {
      final: { kind: "ready", sha256: SHA },
      disagreement: "found",
      tookOver: true,
    }),
    step: { kind: "blocked" },
  },
  // A stage finalized since the last pass.
  {
    says: "a stage finalized elsewhere is reported before anything else",
    view: view(END + 10n, PRIMARY, PROVED, { closedStage: 4n }),
    step: { kind: "report-close", stage: 4n },
  },
  {
    says: "a stage finalized elsewhere is reported by a standby too",
    view: view(END - 500n, STANDBY, {}, { closedStage: 4n }),
    step: { kind: "report-close", stage: 4n },
  },
];

describe("the autopilot's decision (decideNext), as a table", () => {
  for (const row of ROWS) {
    it(row.says, () => {
      expect(decideNext(row.view, new Map(row.tried ?? []))).to.deep.equal(
        row.step,
      );
    });
  }

  it("never sends anything as a standby before its time, whatever it knows", () => {
    const sends = new Set<StepKind>(["push-live", "push-final", "finalize"]);
    const works: Partial<StageWork>[] = [
      {},
      { liveChanged: true },
      PROVED,
      { ...PROVED, writeCount: 4n },
      { final: { kind: "ready", sha256: SHA }, disagreement: "none" },
    ];
    for (let t = END - 1_000n; t < END + 300n; t += 37n)
      for (const work of works)
        for (const extra of [{}, POLICY]) {
          const step = decideNext(view(t, STANDBY, work, extra));
          expect(sends.has(step.kind), `${step.kind} at ${t}`).to.equal(false);
        }
  });

  it("never finalizes or pushes final scores before the end, as either role", () => {
    for (const role of [PRIMARY, STANDBY])
      for (let t = END - 1_000n; t < END; t += 13n) {
        const step = decideNext(
          view(t, role, { ...PROVED, liveChanged: true }),
        );
        expect(["push-final", "finalize"]).not.to.include(step.kind);
      }
  });

  it("comes to rest in every pass: a step that is retried ends in wait, stand-by or blocked", () => {
    const rest = new Set<StepKind>(["wait", "stand-by", "blocked"]);
    for (const role of [PRIMARY, STANDBY])
      for (const at of [END - 500n, END + 10n, END + 400n]) {
        const tried = new Map<StepKind, number>();
        const v = view(at, role, { ...PROVED, writeCount: 4n, tookOver: true });
        let step = decideNext(v, tried);
        for (let i = 0; i < 20 && !rest.has(step.kind); i++) {
          tried.set(step.kind, (tried.get(step.kind) ?? 0) + 1);
          step = decideNext(v, tried);
        }
        expect(
          rest.has(step.kind),
          `${role.kind} at ${at}: ${step.kind}`,
        ).to.equal(true);
      }
  });
});
