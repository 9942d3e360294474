import { existsSync } from "node:fs";

import {
  type VipScore,
  VipScore__factory,
} from "../../types/ethers-contracts/index.js";
import { fetchBridgeInfo } from "../clients/rollup-rest.js";
import { maxCost, transactionOverrides } from "../contract/confirm.js";
import { ERRORS } from "../error-catalog.js";
import { reasonOf, VipError } from "../errors.js";
import { field, formatNumber } from "../output.js";
import { ensureFunds } from "../signer/funds.js";
import { type CorrectedSource, correctedFiles } from "./files.js";
import { describePlan } from "./describe.js";
import {
  type CorrectionPlan,
  planStages,
  proposalChoice,
  type StagePlan,
} from "./plan.js";
import { type ProposalInputs, writeProposalFiles } from "./proposal-files.js";
import {
  carryOut,
  type CorrectionEnv,
  correctionJournalPath,
} from "./replay.js";
import { readChallengeWindows } from "./windows.js";

/** What `stage:correct` is asked, besides where it runs. */
export interface CorrectionRequest {
  stage: bigint;
  source: CorrectedSource;
  allowEmpty: boolean;
  rollupRestUrl: string;
  base: { restUrl: string; moduleAddress: string };
}

/**
 * The correction's plan, made before anything is sent: the old contract's
 * finalized stages from the corrected one on beside their corrected files,
 * the rollup's bridge, and each changed stage's challenge window on the base
 * chain. Every refusal (a stage still open, a missing or empty file, nothing
 * to correct, a bridge that cannot be read) comes from here.
 */
export async function planCorrection(
  old: VipScore,
  request: CorrectionRequest,
  env: Pick<CorrectionEnv, "deploymentId" | "out">,
): Promise<CorrectionPlan> {
  const { stage } = request;
  const openStage = await old.openStage();
  if (openStage <= stage)
    throw new VipError(ERRORS.AUTOPILOT.CORRECTION_STAGE_OPEN, {
      stage,
      open: openStage,
    });
  const files = await correctedFiles(
    request.source,
    stage,
    openStage - 1n,
    env.out,
  );
  const stages = await planStages(old, stage, files, request.allowEmpty);
  const bridgeId = await readBridgeId(request.rollupRestUrl);
  const changed = stages
    .filter((s) => s.changes.length > 0)
    .map((s) => s.stage);
  const windows = await readChallengeWindows(request.base, bridgeId, changed);
  return {
    first: stage,
    stages,
    oldContract: await old.getAddress(),
    openStage,
    deploymentId: env.deploymentId,
    bridgeId,
    windows: windows.windows,
    choice: proposalChoice(windows.windows),
    chainTime: windows.chainTime,
    votingSeconds: windows.votingSeconds,
    expedited: windows.expedited,
    deposit: windows.deposit,
  };
}

async function readBridgeId(rollupRestUrl: string): Promise<bigint> {
  try {
    return (await fetchBridgeInfo(rollupRestUrl)).bridgeId;
  } catch (error) {
    throw new VipError(
      ERRORS.AUTOPILOT.CORRECTION_BRIDGE_UNREADABLE,
      { reason: reasonOf(error) },
      error,
    );
  }
}

/**
 * The plan said, then (unless `dryRun`) carried out and its proposal files
 * written: see `carryOut` and `writeProposalFiles`. `confirm` is asked
 * between the two (a terminal's question); the signer's funds are checked
 * for the whole plan before anything is sent.
 */
export async function runCorrection(
  plan: CorrectionPlan,
  env: CorrectionEnv,
  proposal: Omit<ProposalInputs, "newContract" | "deposit">,
): Promise<{ newContract: string; files: string[] }> {
  describePlan(plan, env.out);
  // A correction that started had its funds checked then; what it spent
  // since is no reason to refuse the rest.
  if (
    !existsSync(correctionJournalPath(env.journalDir, env.chainId, plan.first))
  )
    await ensurePlanFunds(env, plan.stages);
  const newContract = await carryOut(env, plan.stages);
  const files = await writeProposalFiles(
    plan,
    { ...proposal, newContract, deposit: plan.deposit },
    env.out,
  );
  for (const file of files) env.out.line(field("wrote", file));
  return { newContract, files };
}

/** Most a new address costs in `updateScores` (as scores:update bounds it). */
const GAS_PER_ADDRESS = 31_000n;
/** A finalization and a batch's fixed cost, per stage, rounded up. */
const GAS_PER_STAGE = 120_000n;

/**
 * Refuses, before anything is sent, a signer that cannot pay for the whole
 * correction: the new contract's deployment and every stage's scores and
 * finalization at today's fee, every address counted as new.
 */
async function ensurePlanFunds(
  env: CorrectionEnv,
  stages: StagePlan[],
): Promise<void> {
  const provider = env.connection.ethers.provider;
  const from = await env.signer.getAddress();
  const deployment = await new VipScore__factory().getDeployTransaction(
    stages[0]?.stage ?? 1n,
  );
  const deployGas = await provider.estimateGas({ ...deployment, from });
  let addresses = 0n;
  for (const stage of stages) addresses += BigInt(stage.file.table.length);
  const gas =
    deployGas +
    addresses * GAS_PER_ADDRESS +
    BigInt(stages.length) * GAS_PER_STAGE;
  const cost = maxCost(await transactionOverrides(provider, gas));
  await ensureFunds(
    provider,
    from,
    cost,
    `the correction (a new contract and ${stages.length} stage(s), ` +
      `${formatNumber(addresses)} score(s), about ${formatNumber(gas)} gas)`,
  );
}
