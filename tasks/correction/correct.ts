import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { fetchBridgeInfo } from "../clients/rollup-rest.js";
import { maxCost, transactionOverrides } from "../contract/confirm.js";
import { deploymentGas } from "../contract/deploy.js";
import { ERRORS } from "../error-catalog.js";
import { reasonOf, VipError } from "../errors.js";
import { field, formatNumber } from "../output.js";
import { type CorrectedSource, correctedFiles } from "./files.js";
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
import { MAX_GAS_PER_ADDRESS } from "../scores/update.js";
import { manifestFile } from "../scoring/publish.js";
import { ensureFunds } from "../signer/funds.js";

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
 * to correct, a bridge that cannot be read, or that the program does not
 * read from this contract) comes from here.
 */
export async function planCorrection(
  old: VipScore,
  request: CorrectionRequest,
  env: Pick<CorrectionEnv, "deploymentId" | "out">,
): Promise<CorrectionPlan> {
  const { stage } = request;
  const openStage = await old.openStage();
  if (openStage <= stage)
    throw new VipError(ERRORS.AUTOPILOT.CORRECTION.CORRECTION_STAGE_OPEN, {
      stage,
      open: openStage,
    });
  const files = await correctedFiles(
    request.source,
    stage,
    openStage - 1n,
    env.out,
  );
  return withWindows(
    {
      first: stage,
      stages: await planStages(old, stage, files, request.allowEmpty),
      oldContract: await old.getAddress(),
      openStage,
      deploymentId: env.deploymentId,
      bridgeId: await readBridgeId(request.rollupRestUrl),
    },
    request.base,
  );
}

async function readBridgeId(rollupRestUrl: string): Promise<bigint> {
  try {
    return (await fetchBridgeInfo(rollupRestUrl)).bridgeId;
  } catch (error) {
    throw new VipError(
      ERRORS.AUTOPILOT.CORRECTION.CORRECTION_BRIDGE_UNREADABLE,
      { reason: reasonOf(error) },
      error,
    );
  }
}

/** A plan without its base-chain part yet. */
type StagesPlan = Pick<
  CorrectionPlan,
  "first" | "stages" | "oldContract" | "openStage" | "deploymentId" | "bridgeId"
>;

/**
 * The plan's base-chain part, read now: each changed stage's challenge
 * window, the proposals it allows, the voting period and the deposit.
 * Refuses a bridge the program has not registered, or one whose score
 * contract is not the one corrected (the correction would judge another
 * contract than the one the program reads); warns when a snapshot's total is
 * not the contract's, and when the program names no challenge period.
 */
async function withWindows(
  plan: StagesPlan,
  base: CorrectionRequest["base"],
): Promise<CorrectionPlan> {
  const changed = plan.stages
    .filter((s) => s.changes.length > 0)
    .map((s) => s.stage);
  const read = await readChallengeWindows(base, plan.bridgeId, changed);
  if (read.bridge === undefined)
    throw new VipError(
      ERRORS.AUTOPILOT.CORRECTION.CORRECTION_BRIDGE_NOT_REGISTERED,
      {
        bridge: plan.bridgeId,
      },
    );
  if (
    read.bridge.scoreContract.toLowerCase() !== plan.oldContract.toLowerCase()
  )
    throw new VipError(
      ERRORS.AUTOPILOT.CORRECTION.CORRECTION_NOT_THE_PROGRAMS,
      {
        bridge: plan.bridgeId,
        contract: plan.oldContract,
        registered: read.bridge.scoreContract,
      },
    );
  const warnings: string[] = [];
  if (!read.challengePeriodKnown)
    warnings.push(
      "the program names no challenge period: its code's default, one day, is assumed",
    );
  for (const stage of plan.stages) {
    const total = read.snapshotTotals.get(stage.stage);
    if (total !== undefined && total !== stage.oldTotal)
      warnings.push(
        `stage ${stage.stage}'s snapshot holds a total of ${formatNumber(total)}, the contract ` +
          `${formatNumber(stage.oldTotal)}: the snapshot was not taken from this contract's scores`,
      );
  }
  return {
    ...plan,
    windows: read.windows,
    choice: proposalChoice(read.windows),
    chainTime: read.chainTime,
    votingSeconds: read.votingSeconds,
    expedited: read.expedited,
    deposit: read.deposit,
    warnings,
  };
}

/**
 * The plan carried out (`carryOut`: the new contract, the replay, the switch)
 * and its files written (`writeProposalFiles`), with the challenge windows
 * read again after the replay, which may have taken hours: what goes into the
 * proposal is decided then. The signer's funds are checked for the whole
 * plan before anything is sent.
 */
export async function runCorrection(
  plan: CorrectionPlan,
  env: CorrectionEnv,
  request: CorrectionRequest,
  proposal: Omit<ProposalInputs, "newContract" | "deposit" | "policy">,
): Promise<{ newContract: string; files: string[]; plan: CorrectionPlan }> {
  // A correction that started had its funds checked then; what it spent
  // since is no reason to refuse the rest.
  if (
    !existsSync(correctionJournalPath(env.journalDir, env.chainId, plan.first))
  )
    await ensurePlanFunds(env, plan.stages);
  const newContract = await carryOut(env, plan.stages);
  const now = await withWindows(plan, request.base);
  if (now.choice !== plan.choice)
    env.out.warn(
      "the challenge windows moved while the stages were replayed: the proposal is now " +
        `${now.choice} (the plan said ${plan.choice})`,
    );
  const policy = await manifestPolicy(request.source.scoresDir, plan.first);
  const files = await writeProposalFiles(
    now,
    {
      ...proposal,
      newContract,
      deposit: now.deposit,
      ...(policy === undefined ? {} : { policy }),
    },
    env.out,
  );
  for (const file of files) env.out.line(field("wrote", file));
  return { newContract, files, plan: now };
}

/** The policy of the corrected stage's manifest, when its final file has one. */
async function manifestPolicy(
  scoresDir: string,
  stage: bigint,
): Promise<{ file: string; sha256: string } | undefined> {
  let manifest: { policy?: { file?: unknown; sha256?: unknown } };
  try {
    manifest = JSON.parse(
      await readFile(manifestFile(scoresDir, stage), "utf8"),
    ) as typeof manifest;
  } catch {
    return undefined;
  }
  const { file, sha256 } = manifest.policy ?? {};
  return typeof file === "string" && typeof sha256 === "string"
    ? { file, sha256 }
    : undefined;
}

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
  const deployGas = await deploymentGas(provider, from, stages[0]?.stage ?? 1n);
  let addresses = 0n;
  for (const stage of stages) addresses += BigInt(stage.file.table.length);
  const gas =
    deployGas +
    addresses * MAX_GAS_PER_ADDRESS +
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
