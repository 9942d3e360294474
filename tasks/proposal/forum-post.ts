import { assertHardhatInvariant } from "@nomicfoundation/hardhat-errors";

import { formatNumber, formatUnixTime, safeText } from "../output.js";
import {
  type CorrectionMessage,
  describeCorrectionMessages,
  stagesText,
} from "./correction.js";
import { accountAddresses } from "../signer/addresses.js";

/** Where a stage's snapshot stands against its challenge window. */
export type PostedWindow =
  /** Snapshotted; a challenge must execute before `closesAt` (unix seconds). */
  | { state: "open"; closesAt: bigint }
  /**
   * Snapshotted, and the window still open, but it closes at `closesAt`,
   * before an expedited vote could end: not challenged.
   */
  | { state: "too-late"; closesAt: bigint }
  /** Snapshotted, and the window closed at `closedAt`: no challenge can pass. */
  | { state: "closed"; closedAt: bigint }
  /** Not snapshotted yet: the agent will take it from the contract then in force. */
  | { state: "no-snapshot" };

/** One wrongly finalized stage and its correction. */
interface CorrectedStage {
  stage: bigint;
  /** The total score the old contract finalized (the snapshot's). */
  oldTotalScore: bigint;
  /** The total score in the new contract. */
  newTotalScore: bigint;
  /** How many addresses' scores differ between the two. */
  changedAddresses: number;
  window: PostedWindow;
}

/** A file the post names, with its sha256 (hex). */
interface PostedFile {
  /** Its name as attached or published (not a path on the operator's disk). */
  name: string;
  sha256: string;
}

/** Everything the forum post of a correction says. */
export interface ForumPostPlan {
  bridgeId: bigint;
  /** What was wrong, in the operator's words; a default sentence without it. */
  reason?: string;
  /** The scoring policy the corrected scores come from. */
  policy?: PostedFile;
  /** Each corrected stage, in any order (the post lists them ascending). */
  stages: CorrectedStage[];
  /** The corrected stages' final score files. */
  finalFiles: PostedFile[];
  newContract: {
    /** `0x…`: printed EIP-55. */
    address: string;
    /** The Ignition deployment id it was deployed under. */
    deploymentId: string;
  };
  /** The correction proposal's messages, as its file holds them. */
  messages: CorrectionMessage[];
  /**
   * The contract-update-only proposal written beside it when a challenge
   * window closes too soon for the correction to be sure to execute.
   */
  contractUpdateOnly?: { messages: CorrectionMessage[] };
  /**
   * The attached CSV of every changed address (`changedAddressesCsv`): its
   * file name.
   */
  changedAddressesFile: string;
}

/** Every ASCII punctuation character, each of which CommonMark lets a backslash escape. */
const MARKDOWN_PUNCTUATION = /[!-/:-@[-`{-~]/g;
/** How long one line of the operator's reason may be. */
const MAX_REASON_LINE = 1_000;
/** How many lines of the operator's reason are posted. */
const MAX_REASON_LINES = 40;

/**
 * Untrusted text as literal Markdown inside a line: control characters
 * (newlines too) escaped by `safeText`, then every punctuation character
 * backslash-escaped, so it can open no link, image, HTML tag, emphasis,
 * heading, list or table cell.
 */
function markdownText(text: string, max?: number): string {
  return safeText(text, max).replace(
    MARKDOWN_PUNCTUATION,
    (character) => `\\${character}`,
  );
}

/**
 * Untrusted text as an inline code span (a file name, a hash, an id): shown
 * as is, between backtick fences longer than any run of backticks in it, on
 * one line.
 */
function code(text: string): string {
  const safe = safeText(text);
  const longest = Math.max(
    0,
    ...(safe.match(/`+/g) ?? []).map((run) => run.length),
  );
  const fence = "`".repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(safe) ? " " : "";
  return `${fence}${pad}${safe}${pad}${fence}`;
}

/** The operator's reason, line by line, each escaped; blank lines kept as paragraph breaks. */
function reasonMarkdown(reason: string): string {
  const lines = reason.trim().split(/\r\n|\n|\r/);
  const shown = lines
    .slice(0, MAX_REASON_LINES)
    .map((line) => markdownText(line.trim(), MAX_REASON_LINE));
  if (lines.length > MAX_REASON_LINES)
    shown.push(`… (${lines.length - MAX_REASON_LINES} more lines)`);
  return shown.join("\n");
}

function byStage(a: CorrectedStage, b: CorrectedStage): number {
  return a.stage < b.stage ? -1 : a.stage > b.stage ? 1 : 0;
}

function windowText(window: PostedWindow): string {
  switch (window.state) {
    case "open":
      return `challenge before ${formatUnixTime(window.closesAt)}`;
    case "too-late":
      return `its window closes ${formatUnixTime(window.closesAt)}, before a vote could end`;
    case "closed":
      return `past its window (closed ${formatUnixTime(window.closedAt)})`;
    case "no-snapshot":
      return "no snapshot yet";
  }
}

function signed(value: bigint): string {
  return value > 0n ? `+${formatNumber(value)}` : formatNumber(value);
}

/** The stages as a table: totals, changed addresses, challenge deadline. */
function stagesTable(stages: CorrectedStage[]): string[] {
  return [
    "| Stage | Old total score | New total score | Change | Changed addresses | Challenge deadline |",
    "| ---: | ---: | ---: | ---: | ---: | --- |",
    ...stages.map(
      (s) =>
        `| ${s.stage} | ${formatNumber(s.oldTotalScore)} | ${formatNumber(s.newTotalScore)} | ` +
        `${signed(s.newTotalScore - s.oldTotalScore)} | ${formatNumber(s.changedAddresses)} | ` +
        `${windowText(s.window)} |`,
    ),
  ];
}

/** The messages in words, numbered, in a code block. */
function messagesBlock(messages: CorrectionMessage[]): string[] {
  const lines = describeCorrectionMessages(messages).map(
    (line, i) => `${i + 1}. ${line}`,
  );
  const longest = Math.max(
    2,
    ...lines.flatMap((line) => (line.match(/`+/g) ?? []).map((r) => r.length)),
  );
  const fence = "`".repeat(longest + 1);
  return [`${fence}text`, ...lines, fence];
}

/** The stages a message of the proposal challenges, read back from it. */
function challengedStages(messages: CorrectionMessage[]): bigint[] {
  return messages.flatMap((message) => {
    if (message.function_name !== "execute_rollup_challenge") return [];
    let stage: unknown;
    try {
      stage = JSON.parse(message.args[1] ?? "null");
    } catch {
      return [];
    }
    return typeof stage === "string" && /^\d+$/.test(stage)
      ? [BigInt(stage)]
      : [];
  });
}

/** What the VIP agent is asked to do once the proposal executes. */
function agentRequest(plan: ForumPostPlan, contract: string): string[] {
  const challenged = challengedStages(plan.messages);
  const unsnapshotted = plan.stages
    .filter((s) => s.window.state === "no-snapshot")
    .map((s) => s.stage);
  const closed = plan.stages
    .filter((s) => s.window.state === "closed" || s.window.state === "too-late")
    .map((s) => s.stage);
  const lines: string[] = [];
  if (challenged.length > 0)
    lines.push(
      `**Request to the VIP agent:** once this proposal executes, please take the snapshot of ` +
        `${stagesText(challenged)} of bridge ${plan.bridgeId} again, from the new score contract ` +
        `${code(contract)}. \`vip::execute_rollup_challenge\` deletes a stage's snapshot and ` +
        "nothing submits it again by itself.",
    );
  if (unsnapshotted.length > 0)
    lines.push(
      unsnapshotted.length === 1
        ? `${stagesText(unsnapshotted)} has no snapshot yet: please take it from the new ` +
            "contract once the proposal executes. A snapshot taken from the old contract " +
            "before then would need a challenge of its own."
        : `${stagesText(unsnapshotted)} have no snapshot yet: please take them from the new ` +
            "contract once the proposal executes. A snapshot taken from the old contract " +
            "before then would need a challenge of its own.",
    );
  if (closed.length > 0)
    lines.push(
      closed.length === 1
        ? `${stagesText(closed)} can no longer be challenged in time (its window closes ` +
            "before a vote could end): its rewards stay as finalized."
        : `${stagesText(closed)} can no longer be challenged in time (their windows close ` +
            "before a vote could end): their rewards stay as finalized.",
    );
  return lines;
}

function filesList(files: PostedFile[]): string[] {
  return files.map(
    (file) => `- ${code(file.name)}: sha256 ${code(file.sha256)}`,
  );
}

/** The section on the second, contract-update-only proposal. */
function updateOnlySection(plan: ForumPostPlan): string[] {
  if (plan.contractUpdateOnly === undefined) return [];
  return [
    "## If the challenge window closes first",
    "",
    "A proposal's messages execute all or nothing: a challenge executed after its stage's window " +
      "closes fails, and the contract update with it. A second proposal, holding only the " +
      "contract update, is submitted too, so that later stages are taken from the new contract " +
      "whatever becomes of the challenge:",
    "",
    ...messagesBlock(plan.contractUpdateOnly.messages),
    "",
  ];
}

/**
 * The forum post of a correction, in Markdown: what was wrong, the policy,
 * each corrected stage (old and new totals, changed addresses, challenge
 * deadline), the final files and the new contract, the proposal's messages
 * decoded back into words, and the request to the VIP agent. Every value from
 * outside (the operator's reason, file names, hashes, ids) is escaped: it can
 * add no markup.
 */
export function correctionForumPost(plan: ForumPostPlan): string {
  assertHardhatInvariant(
    plan.stages.length > 0,
    "a correction names the stage it corrects",
  );
  const stages = [...plan.stages].sort(byStage);
  const names = stagesText(stages.map((s) => s.stage));
  const contract = accountAddresses(
    plan.newContract.address,
    "the new score contract",
  ).hex;
  const reason =
    plan.reason === undefined || plan.reason.trim() === ""
      ? `The scores finalized for ${names} of bridge ${plan.bridgeId} were wrong; ` +
        "the corrected scores below replace them."
      : reasonMarkdown(plan.reason);
  return [
    `# Correction of VIP ${names} of bridge ${plan.bridgeId}`,
    "",
    "## What was wrong",
    "",
    reason,
    "",
    ...(plan.policy === undefined
      ? []
      : [
          `Scoring policy: ${code(plan.policy.name)}, sha256 ${code(plan.policy.sha256)}.`,
          "",
        ]),
    "## Corrected stages",
    "",
    ...stagesTable(stages),
    "",
    `Every changed address, with its old and new score, is in the attached ` +
      `${code(plan.changedAddressesFile)} (address, stage, old_score, new_score, delta).`,
    "",
    "## Final score files",
    "",
    ...filesList(plan.finalFiles),
    "",
    "## New score contract",
    "",
    `${code(contract)}, Ignition deployment ${code(plan.newContract.deploymentId)}.`,
    "",
    "## The proposal",
    "",
    "It executes these messages, all or nothing (decoded back from the proposal file):",
    "",
    ...messagesBlock(plan.messages),
    "",
    ...agentRequest(plan, contract).flatMap((line) => [line, ""]),
    ...updateOnlySection(plan),
  ].join("\n");
}

/** One address whose score a correction changes. */
export interface ChangedAddress {
  /** `0x…`, any case: written lowercase, as the score files hold it. */
  address: string;
  stage: bigint;
  oldScore: bigint;
  newScore: bigint;
}

/**
 * The attached CSV: `address,stage,old_score,new_score,delta`, a header, then
 * one row per address and stage, by stage then address, integers only.
 */
export function changedAddressesCsv(rows: readonly ChangedAddress[]): string {
  const keyed = rows.map((row) => ({
    ...row,
    address: accountAddresses(
      row.address,
      `a changed address of stage ${row.stage}`,
    ).hex.toLowerCase(),
  }));
  keyed.sort((a, b) =>
    a.stage !== b.stage
      ? a.stage < b.stage
        ? -1
        : 1
      : a.address < b.address
        ? -1
        : a.address > b.address
          ? 1
          : 0,
  );
  keyed.forEach((row, i) => {
    const previous = keyed[i - 1];
    assertHardhatInvariant(
      previous === undefined ||
        previous.stage !== row.stage ||
        previous.address !== row.address,
      `${row.address} is changed once in stage ${row.stage}`,
    );
  });
  return [
    "address,stage,old_score,new_score,delta",
    ...keyed.map(
      (row) =>
        `${row.address},${row.stage},${row.oldScore},${row.newScore},${row.newScore - row.oldScore}`,
    ),
    "",
  ].join("\n");
}
