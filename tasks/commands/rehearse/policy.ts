import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import type { Signer } from "ethers";

import {
  TradeLog__factory,
  type VipScore,
} from "../../../types/ethers-contracts/index.js";
import { writeStageFiles } from "../../activity/publish.js";
import { scoreStage } from "../../activity/score-stage.js";
import { packageFile } from "../../config/package-files.js";
import { defined, VipError } from "../../errors.js";
import type { Connection } from "../../network/connect.js";
import { field, type Output } from "../../output.js";
import { readScoreFile } from "../../scores/read.js";
import { runScoresUpdate } from "../../scores/update.js";
import type { L1RestState } from "../../stand-ins/l1-rest.js";
import { runFinalize } from "../stage-finalize/run.js";

const E18 = 10n ** 18n;
const TRADERS = [
  "0x00000000000000000000000000000000000000b1",
  "0x00000000000000000000000000000000000000b2",
  "0x00000000000000000000000000000000000000b3",
];

/**
 * Scores from the rollup's activity, end to end: the sample policy
 * (scripts/sample-policy/perp-volume.sql) on its own TradeLog contract, trades
 * at set times in the open stage's window (and one after it, which must not
 * count), then scores:index and scores:compute (a final file once both
 * clocks pass the end), scores:update of that file and stage:finalize.
 */
export async function rehearsePolicy(
  connection: Connection,
  score: VipScore,
  signer: Signer,
  baseChain: { url: string; state: L1RestState; moduleAddress: string },
  journalDir: string,
  out: Output,
): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), "vip-rehearsal-policy-"));
  try {
    const stage = await score.openStage();
    const { state } = baseChain;
    state.stage = stage;
    const window = { start: state.stageStartTime, end: state.stageEndTime };

    const tradeLog = await new TradeLog__factory(signer).deploy();
    await tradeLog.waitForDeployment();
    const address = await tradeLog.getAddress();
    const sample = await readFile(
      await packageFile("scripts", "sample-policy", "perp-volume.sql"),
      "utf8",
    );
    const policy = path.join(work, "perp-volume.sql");
    await writeFile(
      policy,
      sample.replace(/(-- @source trades )0x[0-9a-fA-F]{40}/, `$1${address}`),
    );
    out.line(
      field("sample contract", `TradeLog at ${address}, the policy's source`),
    );

    const provider = defined(signer.provider, "signer.provider");
    const trade = async (
      time: bigint,
      entries: [string, bigint, number][],
    ): Promise<void> => {
      await connection.provider.request({
        method: "evm_setNextBlockTimestamp",
        params: [Number(time)],
      });
      await (
        await tradeLog.trade(
          entries.map((e) => e[0]),
          entries.map((e) => e[1]),
          entries.map((e) => e[2]),
        )
      ).wait();
    };
    await trade(window.start + 60n, [
      [defined(TRADERS[0], "trader"), 5n * E18, 10],
      [defined(TRADERS[1], "trader"), E18, 1],
    ]);
    await trade(window.start + 3_600n, [
      [defined(TRADERS[2], "trader"), 7n * E18, 3],
    ]);
    // After the window: the rollup's clock has passed the end, and this trade
    // belongs to the next stage.
    await trade(window.end + 10n, [[defined(TRADERS[0], "trader"), E18, 50]]);
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
        chainId: (await provider.getNetwork()).chainId,
        dataDir: path.join(work, "vip-data"),
        l1RestUrl: baseChain.url,
        moduleAddress: baseChain.moduleAddress,
        out,
      },
      policy,
      stage,
    );
    if (!scores.final)
      throw new VipError(
        `stage ${stage}'s scores are not final, though both clocks are past its end`,
      );
    const written = await writeStageFiles(
      path.join(work, "scores"),
      scores.manifest,
      scores.csv,
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
        replace: false,
        skipUnchanged: false,
        maxInFlight: 0,
        journalDir,
        interactive: false,
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
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
