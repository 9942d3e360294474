import path from "node:path";

import { type PolicyRehearsal, trade } from "./sample-policy.js";
import { alertSink } from "../autopilot/alerts.js";
import { runAutopilot } from "../autopilot/pass-loop.js";
import { prepareContext } from "../autopilot/prepare.js";
import { defined } from "../errors.js";
import { field } from "../output.js";
import { DEFAULT_GRACE_SECONDS } from "../program/stage-timing.js";

const E18 = 10n ** 18n;

/**
 * stage:autopilot --policy as a service runs it, one pass at a time: while the
 * open stage runs on the stand-in base chain's clock, it computes the live
 * scores from the sample policy and pushes them, and finalizes nothing; once
 * both clocks pass the end, it computes the final file, pushes it, verifies
 * it on chain, and finalizes.
 */
export async function rehearseAutopilot({
  connection,
  score,
  signer,
  sample,
  baseChain,
  journalDir,
  scoresDir,
  indexDir,
  out,
}: PolicyRehearsal): Promise<void> {
  const stage = await score.openStage();
  const { state } = baseChain;
  state.stage = stage;
  const chainId = (
    await defined(
      signer.provider,
      "the rehearsal's signer is connected",
    ).getNetwork()
  ).chainId;
  const pass = async () =>
    runAutopilot(
      await prepareContext({
        score,
        signer,
        chainId,
        out,
        alerts: alertSink({ write: (line) => out.line(line) }),
      }),
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
        role: { kind: "primary" },
        scoring: {
          policyPath: sample.policyPath,
          computeIntervalSeconds: 600,
          activity: {
            provider: connection.provider,
            chainId,
            dataDir: path.join(indexDir, "autopilot"),
            l1RestUrl: baseChain.url,
            moduleAddress: baseChain.moduleAddress,
            out,
          },
        },
      },
    );
  // Trades a minute into the window on the rollup's clock (the program
  // moved on at the base chain's clock, which ran ahead of the rollup's).
  await trade(
    connection,
    sample,
    [
      ["0x00000000000000000000000000000000000000a1", 2n * E18, 1],
      ["0x00000000000000000000000000000000000000a2", E18, 6],
    ],
    state.stageStartTime + 60n,
  );
  state.now = state.stageEndTime - 30n;
  out.line(
    field(
      "base chain clock",
      `30 s before stage ${stage}'s end: the autopilot scores it live from ${path.basename(sample.policyPath)}`,
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
  // A block after the end closes the window on the rollup's clock too.
  await trade(
    connection,
    sample,
    [["0x00000000000000000000000000000000000000a1", E18, 1]],
    state.stageEndTime + 1n,
  );
  state.now = state.stageEndTime + 5n;
  out.line(
    field(
      "base chain clock",
      `5 s past stage ${stage}'s end, and the rollup has a block after it`,
    ),
  );
  await pass();
}
