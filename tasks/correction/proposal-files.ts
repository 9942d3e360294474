import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

import { writeJsonFileAtomically } from "../files/json.js";
import { field, type Output } from "../output.js";
import {
  contractUpdateText,
  correctionMessages,
  correctionProposal,
  correctionText,
  describeCorrectionMessages,
} from "../proposal/correction.js";
import {
  type ChangedAddress,
  changedAddressesCsv,
  type ChallengeWindow as PostedWindow,
  correctionForumPost,
} from "../proposal/forum-post.js";
import {
  challengedStages,
  type ChallengeWindow,
  type CorrectionPlan,
} from "./plan.js";

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
}

const CSV_FILE = "changed-addresses.csv";

/**
 * The correction's proposal files in `outDir`: `proposal.json` for `initiad
 * tx gov submit-proposal` (the contract update, then a challenge of each
 * wrong stage that can still be challenged in time), with the update alone in
 * `proposal-contract-update.json` when that is the one to submit or a
 * deadline is near; `forum-post.md`; and `changed-addresses.csv`, every
 * address whose score changes. Returns the files written.
 */
export async function writeProposalFiles(
  plan: CorrectionPlan,
  inputs: ProposalInputs,
  out: Output,
): Promise<string[]> {
  await mkdir(inputs.outDir, { recursive: true });
  const base = {
    vipModuleAddress: inputs.vipModuleAddress,
    bridgeId: plan.bridgeId,
    newContract: inputs.newContract,
  };
  const challenged = challengedStages(plan.windows);
  const full = correctionMessages({ ...base, challengeStages: challenged });
  const updateOnly = correctionMessages({ ...base, challengeStages: [] });
  const subject = {
    bridgeId: plan.bridgeId,
    stages: plan.windows.map((w) => w.stage),
    newContract: inputs.newContract,
  };
  const proposal = (messages: typeof full, text: typeof subject) =>
    correctionProposal({
      messages,
      ...(messages.length > 1
        ? correctionText(text)
        : contractUpdateText(text)),
      metadata: inputs.metadata,
      deposit: inputs.deposit,
      expedited: true,
    });
  const written: string[] = [];
  const write = async (name: string, json: unknown) => {
    const file = path.join(inputs.outDir, name);
    await writeJsonFileAtomically(file, json);
    written.push(file);
  };
  if (plan.choice !== "update-only")
    await write("proposal.json", proposal(full, subject));
  if (plan.choice !== "full")
    await write(
      plan.choice === "update-only"
        ? "proposal.json"
        : "proposal-contract-update.json",
      proposal(updateOnly, subject),
    );
  written.push(
    ...(await writeForumFiles(plan, inputs, {
      messages: plan.choice === "update-only" ? updateOnly : full,
      ...(plan.choice === "full-and-update-only" ? { updateOnly } : {}),
    })),
  );
  for (const line of describeCorrectionMessages(
    plan.choice === "update-only" ? updateOnly : full,
  ))
    out.line(field("message", line));
  return written;
}

async function writeForumFiles(
  plan: CorrectionPlan,
  inputs: ProposalInputs,
  proposals: {
    messages: ReturnType<typeof correctionMessages>;
    updateOnly?: ReturnType<typeof correctionMessages>;
  },
): Promise<string[]> {
  const csv = path.join(inputs.outDir, CSV_FILE);
  await writeFile(csv, changedAddressesCsv(changedAddresses(plan)));
  const post = path.join(inputs.outDir, "forum-post.md");
  await writeFile(
    post,
    correctionForumPost({
      bridgeId: plan.bridgeId,
      ...(inputs.reason === undefined ? {} : { reason: inputs.reason }),
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
      messages: proposals.messages,
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
  return window.state === "open"
    ? { state: "open", closesAt: deadline }
    : { state: "closed", closedAt: deadline };
}
