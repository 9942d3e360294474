import path from "node:path";

import { type PolicyRehearsal, trade } from "./sample-policy.js";
import { runFinalize } from "../contract/finalize-open-stage.js";
import { ERRORS } from "../error-catalog.js";
import { defined, VipError } from "../errors.js";
import { field } from "../output.js";
import { readScoreFile } from "../scores/read.js";
import { runScoresUpdate } from "../scores/update.js";
import { writeStageFiles } from "../scoring/publish.js";
import { scoreStage } from "../scoring/score-stage.js";

const E18 = 10n ** 18n;
const B1 = "0x00000000000000000000000000000000000000b1";
const B2 = "0x00000000000000000000000000000000000000b2";
const B3 = "0x00000000000000000000000000000000000000b3";

/**
 * Scores from the rollup's activity, command by command: the sample policy on
 * its own TradeLog contract, trades at set times in the open stage's window
 * (and one after it, which must not count), then scores:index and
 * scores:compute (a final file once both clocks pass the end), scores:update
 * of that file and stage:finalize.
 */
export async function rehearsePolicy({
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
  const window = { start: state.stageStartTime, end: state.stageEndTime };
  await trade(
    connection,
    sample,
    [
      [B1, 5n * E18, 10],
      [B2, E18, 1],
    ],
    window.start + 60n,
  );
  await trade(connection, sample, [[B3, 7n * E18, 3]], window.start + 3_600n);
  // After the window: the rollup's clock has passed the end, and this trade
  // belongs to the next stage.
  await trade(connection, sample, [[B1, E18, 50]], window.end + 10n);
  state.now = window.end + 20n;
  out.line(
    field(
      "trades",
      `3 in stage ${stage}'s window, 1 after its end; the base chain's clock is past the end`,
    ),
  );

  const scores = await scoreStage(
    {
      provider: connection.provider,
      chainId: (
        await defined(
          signer.provider,
          "the rehearsal's signer is connected",
        ).getNetwork()
      ).chainId,
      dataDir: path.join(indexDir, "policy"),
      l1RestUrl: baseChain.url,
      moduleAddress: baseChain.moduleAddress,
      out,
    },
    sample.policyPath,
    stage,
  );
  if (!scores.final)
    throw new VipError(ERRORS.REHEARSE.GENERAL.SCORES_NOT_FINAL, { stage });
  const written = await writeStageFiles(
    scoresDir,
    scores.manifest,
    scores.csv,
    scores.policy.sql,
  );
  out.line(field("wrote", `${written.csv} and its manifest`));

  const file = await readScoreFile(written.csv);
  await runScoresUpdate(
    score,
    signer,
    file,
    {
      stage,
      network: connection.networkName,
      dryRun: false,
      // The autopilot of the step before pushed this stage's live scores
      // (it opened once stage 16 was finalized): this file replaces them.
      replace: true,
      skipUnchanged: false,
      maxInFlight: 0,
      journalDir,
      interactive: false,
      intent: "final",
    },
    out,
  );
  await runFinalize(
    score,
    signer,
    stage,
    { journalDir, network: connection.networkName },
    out,
  );
}
