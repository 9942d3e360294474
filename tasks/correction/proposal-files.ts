import { mkdir, rm } from "node:fs/promises";
import path from "node:path";

import { writeFileAtomically, writeJsonFileAtomically } from "../files/json.js";
import { field, type Output } from "../output.js";
import {
  challengedStages,
  type ChallengeWindow,
  type CorrectionPlan,
} from "./plan.js";
import {
  contractUpdateText,
  type CorrectionMessage,
  correctionMessages,
  correctionProposal,
  correctionText,
  describeCorrectionMessages,
} from "../proposal/correction.js";
import {
  type ChangedAddress,
  changedAddressesCsv,
  correctionForumPost,
  type PostedWindow,
} from "../proposal/forum-post.js";

/** What the proposal files say besides the plan. */
export interface ProposalInputs {
  outDir: string;
  /** The VIP module's address (`0x…`), as the network's settings hold it. */
  vipModuleAddress: string;
  newContract: string;
  /** The proposal's deposit, as coins text. */
  deposit: string;
  /** The forum post's URL, the proposal's metadata (empty until it is published). */
  metadata: string;
  /** What was wrong, in the operator's words. */
  reason?: string;
  /** The policy the corrected scores come from (its manifest's). */
  policy?: { file: string; sha256: string };
}

const CSV_FILE = "changed-addresses.csv";
const PROPOSAL = "proposal.json";
const UPDATE_ONLY = "proposal-contract-update.json";

/**
 * The correction's files in `outDir`, from the plan (its windows read again
 * after the replay): `forum-post.md`, `changed-addresses.csv` (every address
 * whose score changes), and, for `initiad tx gov submit-proposal`,
 * `proposal.json` (the contract update, then a challenge of each wrong stage
 * that can still be challenged in time) with the update alone in
 * `proposal-contract-update.json` when a deadline is near, or `proposal.json`
 * as the update alone when no stage can be challenged in time. No proposal
 * is written while a wrong stage has no snapshot yet: the agent takes it from
 * the old contract in the meantime, and the proposal must then challenge it
 * (the same command, run again, writes it). A file of an earlier run that no
 * longer applies is removed. Returns the files written.
 */
export async function writeProposalFiles(
  plan: CorrectionPlan,
  inputs: ProposalInputs,
  out: Output,
): Promise<string[]> {
  await mkdir(inputs.outDir, { recursive: true });
  const proposals = plannedProposals(plan, inputs);
  const written: string[] = [];
  for (const [name, messages] of [
    [PROPOSAL, proposals.main],
    [UPDATE_ONLY, proposals.updateOnly],
  ] as const) {
    const file = path.join(inputs.outDir, name);
    if (messages === undefined) {
      await rm(file, { force: true });
      continue;
    }
    await writeJsonFileAtomically(file, proposalFile(plan, inputs, messages));
    written.push(file);
  }
  written.push(...(await writeForumFiles(plan, inputs, proposals)));
  for (const line of describeCorrectionMessages(
    proposals.main ?? proposals.wouldBe,
  ))
    out.line(field("message", line));
  return written;
}

/** The proposals' messages: the one to submit, and the update alone. */
interface PlannedProposals {
  /** Undefined while a wrong stage has no snapshot yet. */
  main?: CorrectionMessage[];
  updateOnly?: CorrectionMessage[];
  /** What the main proposal is, written or not. */
  wouldBe: CorrectionMessage[];
}

function plannedProposals(
  plan: CorrectionPlan,
  inputs: ProposalInputs,
): PlannedProposals {
  const base = {
    vipModuleAddress: inputs.vipModuleAddress,
    bridgeId: plan.bridgeId,
    newContract: inputs.newContract,
  };
  const full = correctionMessages({
    ...base,
    challengeStages: challengedStages(plan.windows),
  });
  const updateOnly = correctionMessages({ ...base, challengeStages: [] });
  const wouldBe = plan.choice === "update-only" ? updateOnly : full;
  if (plan.windows.some((w) => w.state === "no-snapshot")) return { wouldBe };
  return {
    main: wouldBe,
    ...(plan.choice === "full-and-update-only" ? { updateOnly } : {}),
    wouldBe,
  };
}

/** A proposal file's JSON: its messages, and the title and summary that match them. */
function proposalFile(
  plan: CorrectionPlan,
  inputs: ProposalInputs,
  messages: CorrectionMessage[],
) {
  const challenged = challengedStages(plan.windows);
  const subject = {
    bridgeId: plan.bridgeId,
    newContract: inputs.newContract,
    ...(inputs.policy === undefined ? {} : { policy: inputs.policy }),
  };
  const text =
    messages.length > 1
      ? correctionText({ ...subject, stages: challenged })
      : contractUpdateText({
          ...subject,
          stages: plan.windows.map((w) => w.stage),
          ...earliestDeadline(plan.windows),
        });
  return correctionProposal({
    messages,
    ...text,
    metadata: inputs.metadata,
    deposit: inputs.deposit,
    expedited: true,
  });
}

function earliestDeadline(windows: ChallengeWindow[]): { closesAt?: bigint } {
  const deadlines = windows.flatMap((w) =>
    w.deadline === undefined ? [] : [w.deadline],
  );
  if (deadlines.length === 0) return {};
  return { closesAt: deadlines.reduce((a, b) => (b < a ? b : a)) };
}

async function writeForumFiles(
  plan: CorrectionPlan,
  inputs: ProposalInputs,
  proposals: PlannedProposals,
): Promise<string[]> {
  const csv = path.join(inputs.outDir, CSV_FILE);
  await writeFileAtomically(csv, changedAddressesCsv(changedAddresses(plan)));
  const post = path.join(inputs.outDir, "forum-post.md");
  await writeFileAtomically(
    post,
    correctionForumPost({
      bridgeId: plan.bridgeId,
      ...(inputs.reason === undefined ? {} : { reason: inputs.reason }),
      ...(inputs.policy === undefined
        ? {}
        : {
            policy: { name: inputs.policy.file, sha256: inputs.policy.sha256 },
          }),
      stages: plan.stages
        .filter((s) => s.changes.length > 0)
        .map((s) => ({
          stage: s.stage,
          oldTotalScore: s.oldTotal,
          newTotalScore: s.file.table.totalScore(),
          changedAddresses: s.changes.length,
          window: postedWindow(plan.windows.find((w) => w.stage === s.stage)),
        })),
      finalFiles: plan.stages.map((s) => ({
        name: path.basename(s.file.path),
        sha256: s.file.sha256,
      })),
      newContract: {
        address: inputs.newContract,
        deploymentId: plan.deploymentId,
      },
      messages: proposals.wouldBe,
      ...(proposals.updateOnly === undefined
        ? {}
        : { contractUpdateOnly: { messages: proposals.updateOnly } }),
      changedAddressesFile: CSV_FILE,
    }),
  );
  return [post, csv];
}

/** Every address whose score the correction changes, stage by stage. */
function changedAddresses(plan: CorrectionPlan): ChangedAddress[] {
  return plan.stages.flatMap((s) =>
    s.changes.map((d) => ({
      address: d.address,
      stage: s.stage,
      oldScore: d.actual ?? 0n,
      newScore: d.expected,
    })),
  );
}

function postedWindow(window: ChallengeWindow | undefined): PostedWindow {
  if (window === undefined || window.state === "no-snapshot")
    return { state: "no-snapshot" };
  const deadline = window.deadline ?? 0n;
  if (window.state === "closed") return { state: "closed", closedAt: deadline };
  return window.passesInTime
    ? { state: "open", closesAt: deadline }
    : { state: "too-late", closesAt: deadline };
}
