import type { Signer } from "ethers";

import {
  type VipScore,
  VipScore__factory,
} from "../../types/ethers-contracts/index.js";
import { runDeploy } from "../contract/deploy.js";
import { deploymentDir } from "../contract/deployment.js";
import { finalizeOnce } from "../contract/finalize.js";
import { recordSuccession } from "../contract/succession.js";
import { ERRORS } from "../error-catalog.js";
import { defined, VipError } from "../errors.js";
import {
  finalizeJournalPath,
  Journal,
  journalPath,
} from "../journal/journal.js";
import type { Connection } from "../network/connect.js";
import { field, type Output } from "../output.js";
import type { StagePlan } from "./plan.js";
import { journalledProof, proveEmptyStage } from "../scores/proof.js";
import { runScoresUpdate } from "../scores/update.js";

/** What a correction journals, in order; a rerun resumes from it. */
type CorrectionRecord =
  | {
      type: "start";
      stage: string;
      oldContract: string;
      deploymentId: string;
      files: { stage: string; sha256: string }[];
      at: string;
    }
  | { type: "deployed"; address: string }
  | { type: "finalized"; stage: string; tx?: string }
  | { type: "switched"; at: string };

/** Where a correction is: what it did, and the new contract's open stage. */
export interface CorrectionState {
  first: bigint;
  last: bigint;
  deployed?: string;
  /** The new contract's open stage (once deployed). */
  newOpenStage?: bigint;
  switched: boolean;
}

export type CorrectionStep =
  | { kind: "deploy" }
  | { kind: "replay"; stage: bigint }
  | { kind: "switch" }
  | { kind: "done" };

/**
 * What the correction does next, from where it is: deploy, then each stage
 * from the first to the last in order (the new contract's open stage says
 * which), then make the new contract the chain's current one. A pure
 * function: a rerun after a kill anywhere asks it again.
 */
export function nextCorrectionStep(state: CorrectionState): CorrectionStep {
  if (state.deployed === undefined) return { kind: "deploy" };
  const open = state.newOpenStage ?? state.first;
  if (open <= state.last) return { kind: "replay", stage: open };
  return state.switched ? { kind: "done" } : { kind: "switch" };
}

/** What the correction runs with. */
export interface CorrectionEnv {
  connection: Connection;
  signer: Signer;
  chainId: bigint;
  network: string;
  journalDir: string;
  ignitionPath: string;
  deploymentId: string;
  oldContract: string;
  out: Output;
}

/** The correction's journal for `stage` on the chain. */
export function correctionJournalPath(
  journalDir: string,
  chainId: bigint,
  stage: bigint,
): string {
  return journalPath(journalDir, chainId, "corrections", stage);
}

/**
 * Carries the correction out, journalled: a new VipScore from the first
 * stage on (its own Ignition deployment), each stage pushed from its
 * corrected file, proved and finalized in order, then the new contract made
 * the chain's current one (the old one refused for writes). Every send goes
 * through the journalled code of `contract:deploy`, `scores:update` and
 * `stage:finalize`, so a kill anywhere resumes without sending anything
 * twice. Returns the new contract's address.
 */
export async function carryOut(
  env: CorrectionEnv,
  stages: StagePlan[],
): Promise<string> {
  const journal = await openCorrectionJournal(env, stages);
  const first = stages[0]?.stage ?? 0n;
  const last = stages[stages.length - 1]?.stage ?? first - 1n;
  for (;;) {
    const state = await correctionState(env, journal, first, last);
    const step = nextCorrectionStep(state);
    switch (step.kind) {
      case "deploy":
        await journal.append({
          type: "deployed",
          address: await deployNew(env, first),
        });
        break;
      case "replay": {
        const plan = defined(
          stages.find((s) => s.stage === step.stage),
          "the next step replays a stage of the plan: first to last",
        );
        const tx = await replayStage(env, stageContract(env, state), plan);
        await journal.append({
          type: "finalized",
          stage: step.stage.toString(),
          ...(tx === undefined ? {} : { tx }),
        });
        break;
      }
      case "switch":
        await recordSuccession(env.ignitionPath, env.chainId, {
          previous: env.oldContract,
          next: stageContract(env, state).target as string,
          deploymentId: env.deploymentId,
          fromStage: first,
        });
        await journal.append({
          type: "switched",
          at: new Date().toISOString(),
        });
        break;
      case "done":
        return stageContract(env, state).target as string;
    }
  }
}

/**
 * The correction's journal: started with the plan's files, or resumed when
 * it holds the same ones (another file would mix two corrections on one new
 * contract).
 */
async function openCorrectionJournal(
  env: CorrectionEnv,
  stages: StagePlan[],
): Promise<Journal<CorrectionRecord>> {
  const first = stages[0]?.stage ?? 0n;
  const journal = await Journal.open<CorrectionRecord>(
    correctionJournalPath(env.journalDir, env.chainId, first),
  );
  const start = journal.start;
  if (start === undefined) {
    await journal.append({
      type: "start",
      stage: first.toString(),
      oldContract: env.oldContract,
      deploymentId: env.deploymentId,
      files: stages.map((s) => ({
        stage: s.stage.toString(),
        sha256: s.file.sha256,
      })),
      at: new Date().toISOString(),
    });
    env.out.line(field("journal", journal.path));
    return journal;
  }
  for (const { stage, sha256 } of start.files) {
    const now = stages.find((s) => s.stage.toString() === stage);
    if (now === undefined || now.file.sha256 !== sha256)
      throw new VipError(ERRORS.AUTOPILOT.CORRECTION.CORRECTION_OTHER_FILES, {
        stage: first,
        journal: journal.path,
        differing: stage,
        started: sha256.slice(0, 16),
        now: (now?.file.sha256 ?? "none").slice(0, 16),
      });
  }
  env.out.line(field("journal", `${journal.path}: resuming`));
  return journal;
}

async function correctionState(
  env: CorrectionEnv,
  journal: Journal<CorrectionRecord>,
  first: bigint,
  last: bigint,
): Promise<CorrectionState> {
  const deployed = journal.records.findLast((r) => r.type === "deployed");
  const address = deployed?.type === "deployed" ? deployed.address : undefined;
  const state: CorrectionState = {
    first,
    last,
    switched: journal.records.some((r) => r.type === "switched"),
    ...(address === undefined ? {} : { deployed: address }),
  };
  if (address !== undefined)
    state.newOpenStage = await VipScore__factory.connect(
      address,
      env.signer,
    ).openStage();
  return state;
}

function stageContract(env: CorrectionEnv, state: CorrectionState): VipScore {
  return VipScore__factory.connect(
    defined(state.deployed, "a step after the deployment"),
    env.signer,
  );
}

/** The new contract, starting at the corrected stage: its own deployment. */
async function deployNew(env: CorrectionEnv, first: bigint): Promise<string> {
  const report = await runDeploy(
    env.connection,
    {
      startStage: first,
      startStageSource: "the stage being corrected",
      deploymentId: env.deploymentId,
      journalDir: deploymentDir(
        env.ignitionPath,
        env.chainId,
        env.deploymentId,
      ),
    },
    env.out,
  );
  return report.address;
}

/**
 * One stage to the new contract: its corrected file pushed as final scores
 * and proved (by the push's events; an empty file by reading the stage), then
 * the stage finalized, fenced by the proof's write count. Returns the
 * finalization's transaction.
 */
async function replayStage(
  env: CorrectionEnv,
  score: VipScore,
  plan: StagePlan,
): Promise<string | undefined> {
  const { stage, file } = plan;
  const contract = await score.getAddress();
  env.out.line(
    field("replay", `stage ${stage} from ${file.path} to ${contract}`),
  );
  const proof =
    file.table.length === 0
      ? await proveEmptyStage(score, file, stage, env.out)
      : await pushAndProve(env, score, plan);
  const { receipt } = await finalizeOnce(
    score,
    env.signer,
    stage,
    finalizeJournalPath(env.journalDir, env.chainId, contract, stage),
    {
      network: env.network,
      ...(proof?.writeCount === undefined
        ? {}
        : { writeCount: proof.writeCount }),
    },
  );
  env.out.line(
    field(
      "finalized",
      `stage ${stage} on ${contract}${receipt === undefined ? "" : ` in tx ${receipt.hash}`}`,
    ),
  );
  return receipt?.hash;
}

async function pushAndProve(
  env: CorrectionEnv,
  score: VipScore,
  { stage, file }: StagePlan,
) {
  await runScoresUpdate(
    score,
    env.signer,
    file,
    {
      stage,
      network: env.network,
      dryRun: false,
      journalDir: env.journalDir,
      replace: true,
      skipUnchanged: true,
      maxInFlight: 0,
      interactive: false,
      intent: "final",
    },
    env.out,
  );
  return journalledProof(
    await Journal.open(
      journalPath(env.journalDir, env.chainId, await score.getAddress(), stage),
    ),
  );
}
