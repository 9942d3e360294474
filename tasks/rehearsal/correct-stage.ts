import { writeFile } from "node:fs/promises";
import path from "node:path";

import { type PolicyRehearsal, trade } from "./sample-policy.js";
import { fetchChainTime } from "../clients/l1-rest.js";
import { runFinalize } from "../contract/finalize-open-stage.js";
import { planCorrection, runCorrection } from "../correction/correct.js";
import { describePlan } from "../correction/describe.js";
import { defined } from "../errors.js";
import { counted, field } from "../output.js";
import { readScoreFile } from "../scores/read.js";
import { runScoresUpdate } from "../scores/update.js";
import { auditStage } from "../scoring/audit.js";
import type { ActivityContext } from "../scoring/context.js";
import { scoreStage } from "../scoring/score-stage.js";

const E18 = 10n ** 18n;
const C1 = "0x00000000000000000000000000000000000000c1";
const C2 = "0x00000000000000000000000000000000000000c2";

/** What the correction's rehearsal needs besides the scoring rehearsal's. */
export interface CorrectionRehearsal extends PolicyRehearsal {
  rollupRestUrl: string;
  /** The bridge the stand-ins give the rollup. */
  bridgeId: bigint;
  /**
   * Where the broken job's file, the new contract's deployment, the proposal
   * and the forum post are kept (in the rehearsal's folder).
   */
  outDir: string;
}

/**
 * A wrong stage, found and corrected: the open stage scored by a broken job
 * (one trader's score dropped), pushed and finalized, snapshotted by the
 * agent; `scores:audit` finds the difference with the sample policy; then
 * `stage:correct --policy` replays it to a new contract (its deployment in
 * `outDir`), its final file computed into the scores folder, and writes the
 * proposal. Returns the proposal's path and the new contract.
 */
export async function rehearseCorrection(
  r: CorrectionRehearsal,
): Promise<{ proposal: string; newContract: string }> {
  // The program reads the rollup's scores from this contract.
  r.baseChain.state.scoreContracts.set(r.bridgeId, await r.score.getAddress());
  const { activity, stage } = await wrongStage(r);
  const { state } = r.baseChain;
  // The stand-in's program moves past the stage by its clock.
  await fetchChainTime(r.baseChain.url);
  state.snapshots.set(
    stage,
    new Map([
      [
        `${r.bridgeId}:1`,
        {
          createTime: state.now ?? 0n,
          totalL2Score: (await r.score.stages(stage)).totalScore,
        },
      ],
    ]),
  );
  r.out.line(
    field(
      "snapshot",
      `the agent took stage ${stage} from ${await r.score.getAddress()}`,
    ),
  );
  const differences = await auditStage(
    r.score,
    await scoreStage(activity, r.sample.policyPath, stage),
    r.out,
  );
  r.out.line(
    field(
      "audit",
      `${counted(differences, "address differs", "addresses differ")} from the policy`,
    ),
  );
  return await correct(r, activity, stage);
}

/** The open stage, scored by a job that drops a trader, pushed and finalized. */
async function wrongStage(
  r: CorrectionRehearsal,
): Promise<{ activity: ActivityContext; stage: bigint }> {
  const stage = await r.score.openStage();
  const { state } = r.baseChain;
  // The stand-in's program moves to the open stage by its clock (the last
  // step left it past the previous stage's end).
  await fetchChainTime(r.baseChain.url);
  const window = { start: state.stageStartTime, end: state.stageEndTime };
  await trade(r.connection, r.sample, [[C1, 4n * E18, 2]], window.start + 60n);
  await trade(r.connection, r.sample, [[C2, 2n * E18, 1]], window.start + 120n);
  await trade(r.connection, r.sample, [[C1, E18, 1]], window.end + 10n);
  state.now = window.end + 20n;
  const activity: ActivityContext = {
    provider: r.connection.provider,
    chainId: (
      await defined(
        r.signer.provider,
        "the rehearsal's signer is connected",
      ).getNetwork()
    ).chainId,
    dataDir: path.join(r.indexDir, "correction"),
    l1RestUrl: r.baseChain.url,
    moduleAddress: r.baseChain.moduleAddress,
    out: r.out,
  };
  // The broken job's file: C2 left out.
  const wrong = path.join(r.outDir, `stage-${stage}.wrong.csv`);
  await writeFile(wrong, `address,score\n${C1},12\n`);
  await runScoresUpdate(
    r.score,
    r.signer,
    await readScoreFile(wrong),
    {
      stage,
      network: r.connection.networkName,
      dryRun: false,
      replace: true,
      skipUnchanged: false,
      maxInFlight: 0,
      journalDir: r.journalDir,
      interactive: false,
      intent: "final",
    },
    r.out,
  );
  await runFinalize(
    r.score,
    r.signer,
    stage,
    { journalDir: r.journalDir, network: r.connection.networkName },
    r.out,
  );
  return { activity, stage };
}

/**
 * `stage:correct --stage <stage> --policy … --scores-dir <the scores folder>`,
 * its new contract's deployment kept in `outDir`.
 */
async function correct(
  r: CorrectionRehearsal,
  activity: ActivityContext,
  stage: bigint,
): Promise<{ proposal: string; newContract: string }> {
  const { scoresDir } = r;
  const chainId = activity.chainId;
  const env = {
    connection: r.connection,
    signer: r.signer,
    chainId,
    network: r.connection.networkName,
    journalDir: r.journalDir,
    ignitionPath: path.join(r.outDir, "ignition"),
    deploymentId: `chain-${chainId}-from-stage-${stage}`,
    oldContract: await r.score.getAddress(),
    out: r.out,
  };
  const request = {
    stage,
    source: { scoresDir, policy: { path: r.sample.policyPath, activity } },
    allowEmpty: false,
    rollupRestUrl: r.rollupRestUrl,
    base: {
      restUrl: r.baseChain.url,
      moduleAddress: r.baseChain.moduleAddress,
    },
  };
  const plan = await planCorrection(r.score, request, env);
  describePlan(plan, r.out);
  const { newContract } = await runCorrection(plan, env, request, {
    outDir: r.outDir,
    vipModuleAddress: r.baseChain.moduleAddress,
    metadata: "",
    reason: "a broken scoring job left a trader out",
  });
  return { proposal: path.join(r.outDir, "proposal.json"), newContract };
}
