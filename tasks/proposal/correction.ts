import { createHash } from "node:crypto";

import { AccAddress, MsgGovExecuteJSON } from "@initia/initia.js";
import { assertHardhatInvariant } from "@nomicfoundation/hardhat-errors";
import { bech32 } from "bech32";

import { formatUnixTime, safeText } from "../output.js";
import { accountAddresses } from "../signer/addresses.js";

/**
 * A Cosmos module's account, as the SDK's `authtypes.NewModuleAddress(name)`
 * derives it: the first 20 bytes of sha256(name), bech32 with Initia's
 * prefix.
 */
function moduleAccount(name: string): string {
  const hash = createHash("sha256").update(name).digest().subarray(0, 20);
  return bech32.encode("init", bech32.toWords(hash));
}

/**
 * The gov module's account on Initia (`init10d07y265gmmuvt4z0w9aw880jnsr700j55nka3`):
 * the authority of every message a proposal executes.
 */
export const GOV_AUTHORITY = moduleAccount("gov");

const MAX_UINT64 = 2n ** 64n - 1n;
const UPDATE_CONTRACT = "update_l2_score_contract";
const CHALLENGE = "execute_rollup_challenge";

/** One message of a correction proposal, as the proposal file holds it. */
export type CorrectionMessage = MsgGovExecuteJSON.Data;

export interface CorrectionMessagesArgs {
  /** The VIP module's address, `0x…` hex, as the settings hold it. */
  vipModuleAddress: string;
  bridgeId: bigint;
  /** The new scoring contract on the rollup (`0x…`, any case). */
  newContract: string;
  /**
   * The wrong stages whose snapshots are still inside their challenge
   * window: each is challenged (its snapshot deleted), in ascending order.
   * Empty for the contract-update-only proposal.
   */
  challengeStages: bigint[];
}

/** A u64 as a Move JSON argument: a JSON string of its digits (`"\"29\""`). */
function u64Arg(value: bigint, what: string): string {
  assertHardhatInvariant(
    value >= 0n && value <= MAX_UINT64,
    `${what} ${value} fits a u64`,
  );
  return JSON.stringify(value.toString());
}

/**
 * The messages of a correction, in the order they must execute: the rollup
 * pointed at its new scoring contract (`vip::update_l2_score_contract`, the
 * address EIP-55 mixed case as mainnet proposal 40 gave it), then one
 * `vip::execute_rollup_challenge` per wrong stage, ascending, which deletes
 * that stage's snapshot so the agent takes it again from the new contract.
 * Each is initia.js's own `MsgGovExecuteJSON`, executed by the gov module in
 * the name of the VIP module's account.
 */
export function correctionMessages({
  vipModuleAddress,
  bridgeId,
  newContract,
  challengeStages,
}: CorrectionMessagesArgs): CorrectionMessage[] {
  assertHardhatInvariant(
    /^0x[0-9a-fA-F]{1,64}$/.test(vipModuleAddress),
    "the settings hold the VIP module address as 0x… hex",
  );
  const vipModule = AccAddress.fromHex(vipModuleAddress);
  const contract = accountAddresses(newContract, "the new score contract").hex;
  const bridge = u64Arg(bridgeId, "the bridge id");
  const message = (functionName: string, args: string[]) =>
    new MsgGovExecuteJSON(
      GOV_AUTHORITY,
      vipModule,
      vipModule,
      "vip",
      functionName,
      [],
      args,
    ).toData();
  const stages = [...new Set(challengeStages)].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return [
    message(UPDATE_CONTRACT, [bridge, JSON.stringify(contract)]),
    ...stages.map((stage) =>
      message(CHALLENGE, [bridge, u64Arg(stage, "a challenged stage")]),
    ),
  ];
}

export interface CorrectionProposalArgs {
  messages: CorrectionMessage[];
  title: string;
  summary: string;
  /** The forum post's URL. */
  metadata: string;
  /** Coins, e.g. `100000000000uinit`. */
  deposit: string;
  /**
   * Only an expedited proposal (24 h of voting on mainnet, not 7 days) ends
   * inside a 3-day challenge window: true unless told.
   */
  expedited?: boolean;
}

/**
 * The proposal file `initiad tx gov submit-proposal <file>` reads. Its
 * messages execute all or nothing.
 */
export function correctionProposal({
  messages,
  title,
  summary,
  metadata,
  deposit,
  expedited = true,
}: CorrectionProposalArgs) {
  assertHardhatInvariant(
    messages.length > 0,
    "a correction proposal holds at least the contract update",
  );
  return { messages, metadata, deposit, title, summary, expedited };
}

/** A JSON argument read back: the text a u64 or a String was written as. */
function argText(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

function u64Words(raw: string | undefined, what: string): string {
  const text = argText(raw);
  return text !== undefined && /^(0|[1-9]\d*)$/.test(text)
    ? `${what} ${text}`
    : `${what} unreadable (${safeText(String(raw), 80)})`;
}

function addressWords(raw: string | undefined): string {
  const text = argText(raw);
  return text !== undefined && /^0x[0-9a-fA-F]{40}$/.test(text)
    ? `new score contract ${text}`
    : `new score contract unreadable (${safeText(String(raw), 80)})`;
}

/** What a message does, from its arguments. */
function messageWords(message: CorrectionMessage): string {
  const [bridge, second, ...extra] = message.args;
  const surplus =
    extra.length > 0 ? `, and ${extra.length} more arguments (!)` : "";
  switch (message.function_name) {
    case UPDATE_CONTRACT:
      return `${u64Words(bridge, "bridge")}, ${addressWords(second)}${surplus}`;
    case CHALLENGE:
      return (
        `${u64Words(bridge, "bridge")}, ${u64Words(second, "stage")}${surplus}: ` +
        "its snapshot is deleted, for the agent to take it again"
      );
    default:
      return `not a correction message: args ${safeText(JSON.stringify(message.args), 160)}`;
  }
}

/** Whatever in a message differs from what a correction sends. */
function messageWarnings(message: CorrectionMessage): string[] {
  const warnings: string[] = [];
  if (message["@type"] !== "/initia.move.v1.MsgGovExecuteJSON")
    warnings.push(`type ${safeText(String(message["@type"]), 80)}`);
  if (message.authority !== GOV_AUTHORITY)
    warnings.push(
      `authority ${safeText(message.authority, 80)} is not the gov module`,
    );
  if (message.sender !== message.module_address)
    warnings.push("sender is not the module's address");
  if (message.type_args.length > 0) warnings.push("type arguments given");
  return warnings;
}

/**
 * Each message decoded back into words from what the proposal holds (the
 * function, the bridge id, the stage or the new contract): what the operator
 * reads before submitting and voters in the forum post.
 */
export function describeCorrectionMessages(
  messages: readonly CorrectionMessage[],
): string[] {
  return messages.map((message) => {
    const name = `${safeText(message.module_name, 40)}::${safeText(message.function_name, 80)}`;
    const warnings = messageWarnings(message);
    return (
      `${name.padEnd(32)} ${messageWords(message)}` +
      (warnings.length > 0 ? ` (${warnings.join("; ")}!)` : "")
    );
  });
}

/** "stage 12", "stages 12 and 13", "stages 12, 13 and 14". */
export function stagesText(stages: readonly bigint[]): string {
  const sorted = [...new Set(stages)].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  const names = sorted.map(String);
  if (names.length <= 1) return `stage ${names.join("")}`;
  return `stages ${names.slice(0, -1).join(", ")} and ${names.at(-1) ?? ""}`;
}

export interface CorrectionSubject {
  bridgeId: bigint;
  /** The wrongly finalized stages (at least one). */
  stages: bigint[];
  /** The new scoring contract (`0x…`). */
  newContract: string;
  /** The scoring policy the new contract's scores come from, if any. */
  policy?: { file: string; sha256: string };
}

export interface CorrectionText {
  title: string;
  summary: string;
}

function policySentence(policy: CorrectionSubject["policy"]): string {
  return policy === undefined
    ? ""
    : ` The corrected scores come from the scoring policy ${safeText(policy.file, 120)}, ` +
        `sha256 ${safeText(policy.sha256, 64)}.`;
}

/**
 * The title and summary of the correction proposal: the contract update and
 * the challenge of each wrong stage, and what the VIP agent is asked to do
 * after it executes.
 */
export function correctionText(subject: CorrectionSubject): CorrectionText {
  assertHardhatInvariant(
    subject.stages.length > 0,
    "a correction names the stage it corrects",
  );
  const contract = accountAddresses(
    subject.newContract,
    "the new score contract",
  ).hex;
  const stages = stagesText(subject.stages);
  return {
    title: `Correct VIP ${stages} of bridge ${subject.bridgeId}`,
    summary:
      `Bridge ${subject.bridgeId} finalized wrong scores for ${stages}. This proposal points ` +
      `VIP at the rollup's new score contract ${contract}, which holds the corrected ` +
      `scores (vip::update_l2_score_contract), then deletes the snapshot of ${stages} ` +
      `(vip::execute_rollup_challenge). After it executes, the VIP agent is asked to take ` +
      `${stages} again from the new contract.${policySentence(subject.policy)}`,
  };
}

/**
 * The title and summary of the contract-update-only proposal, written beside
 * the correction when a challenge window closes too soon: a challenge that
 * executes after its window aborts, and with it every message of its
 * proposal, so this one updates the contract alone. `closesAt` is the
 * earliest window's end (unix seconds), when known.
 */
export function contractUpdateText(
  subject: CorrectionSubject & { closesAt?: bigint },
): CorrectionText {
  const contract = accountAddresses(
    subject.newContract,
    "the new score contract",
  ).hex;
  const stages = stagesText(subject.stages);
  const closes =
    subject.closesAt === undefined
      ? "closes too soon"
      : `closes at ${formatUnixTime(subject.closesAt)}`;
  return {
    title: `Update the VIP score contract of bridge ${subject.bridgeId}`,
    summary:
      `Points VIP at bridge ${subject.bridgeId}'s new score contract ${contract} ` +
      `(vip::update_l2_score_contract) and nothing else. The challenge window of ` +
      `${stages} ${closes}: a challenge executed after it fails, and with it every ` +
      `message of its proposal. This proposal leaves the snapshot of ${stages} as it ` +
      `is, so that later stages are taken from the corrected contract whatever ` +
      `becomes of the challenge.${policySentence(subject.policy)}`,
  };
}
