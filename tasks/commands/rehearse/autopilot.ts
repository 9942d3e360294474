import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import type { Signer } from "ethers";

import type { VipScore } from "../../../types/ethers-contracts/index.js";
import { alertSink } from "../../autopilot/alerts.js";
import { runAutopilot } from "../../autopilot/run.js";
import { DEFAULT_GRACE_SECONDS } from "../../autopilot/schedule.js";
import { field, type Output } from "../../output.js";
import type { L1RestState } from "../../stand-ins/l1-rest.js";
import { defined } from "../../errors.js";

/**
 * stage:autopilot as a service runs it, one pass at a time: before the open
 * stage's end on the stand-in base chain's clock nothing is finalized (the
 * final file is already there); once the clock passes the end, the autopilot
 * pushes the final file, verifies it on chain, and finalizes.
 */
export async function rehearseAutopilot(
  score: VipScore,
  signer: Signer,
  baseChain: { url: string; state: L1RestState; moduleAddress: string },
  journalDir: string,
  out: Output,
): Promise<void> {
  const scoresDir = await mkdtemp(path.join(tmpdir(), "vip-rehearsal-scores-"));
  try {
    const stage = await score.openStage();
    const addresses = [
      "0x00000000000000000000000000000000000000a1",
      "0x00000000000000000000000000000000000000a2",
    ];
    await writeFile(
      path.join(scoresDir, `stage-${stage}.final.csv`),
      `address,score\n${addresses[0]},40\n${addresses[1]},2\n`,
    );
    const chainId = (
      await defined(signer.provider, "signer.provider").getNetwork()
    ).chainId;
    const pass = () =>
      runAutopilot(
        {
          score,
          signer,
          chainId,
          out,
          alerts: alertSink({ write: (line) => out.line(line) }),
        },
        {
          scoresDir,
          once: true,
          pollSeconds: 60,
          graceSeconds: DEFAULT_GRACE_SECONDS,
          statusFile: path.join(journalDir, "autopilot", "status.json"),
          journalDir,
          l1RestUrl: baseChain.url,
          moduleAddress: baseChain.moduleAddress,
          network: "default",
        },
      );
    const { state } = baseChain;
    state.stage = stage;
    state.now = state.stageEndTime - 30n;
    out.line(
      field(
        "base chain clock",
        `30 s before stage ${stage}'s end; stage-${stage}.final.csv is already written`,
      ),
    );
    const early = await pass();
    out.line(
      field(
        "finalized",
        early.finalized.length === 0
          ? "nothing: the stage has not ended on the base chain's clock"
          : early.finalized.join(", "),
      ),
    );
    state.now = state.stageEndTime + 5n;
    out.line(field("base chain clock", `5 s past stage ${stage}'s end`));
    await pass();
  } finally {
    await rm(scoresDir, { recursive: true, force: true });
  }
}
