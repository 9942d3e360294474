import path from "node:path";

import { exists } from "@nomicfoundation/hardhat-utils/fs";

import { describeRegisterArgs, whitelistProposal } from "./whitelist.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
import {
  checkVipModule,
  fetchMinDeposit,
  fetchRegisteredBridgeIds,
  fetchVipStage,
} from "../clients/l1-rest.js";
import { type BridgeInfo, fetchBridgeInfo } from "../clients/rollup-rest.js";
import { ERRORS } from "../error-catalog.js";
import { reasonOf, VipError, defined } from "../errors.js";
import { writeJsonFileAtomically } from "../files/json.js";
import { field, type Output } from "../output.js";
import { deriveBridgeAddress } from "./bridge-address.js";
import { checkRates, parseRate, type Rate } from "./rates.js";
import { loadPolicies } from "../policy/load.js";
import {
  type AccountAddresses,
  accountAddresses,
} from "../signer/addresses.js";

const MAINNET_CHAIN_ID = "interwoven-1";
/**
 * The deposit in Initia's docs, used only when the base chain's gov params
 * cannot be read.
 */
const FALLBACK_DEPOSIT = "100000000uinit";

export interface WhitelistOptions {
  operator: string;
  commissionMaxRate: string;
  commissionMaxChangeRate: string;
  commissionRate: string;
  metadata: string;
  title: string;
  summary: string;
  /** A scoring policy file: its name and sha256 go into the summary. */
  policy?: string;
  out: string;
  deposit?: string;
  force: boolean;
}

export interface WhitelistContext {
  l1RestUrl: string;
  rollupRestUrl: string;
  vipModuleAddress: string;
  score: VipScore;
  /** The `--network` it runs on: refusals name complete commands for it. */
  network: string;
}

/**
 * Builds the whitelist proposal after every check the chain would make, and a
 * few it makes too late (after the vote): what the options say first (no
 * network), then the rollup (bridge, contract), then the base chain (VIP
 * module, registered bridges, program stage, deposit). Writes the file only
 * when all pass.
 */
export async function runWhitelistProposal(
  options: WhitelistOptions,
  context: WhitelistContext,
  out: Output,
): Promise<string> {
  const checked = await checkOptions(options);
  const rollup = await checkRollup(context);
  await checkBaseChain(context, rollup);
  const deposit = options.deposit ?? (await minDeposit(context.l1RestUrl, out));
  refuseTestnet(rollup.bridge, options.force, out);

  const proposal = whitelistProposal(
    context.vipModuleAddress,
    {
      operator: checked.operator.hex,
      bridgeId: rollup.bridge.bridgeId,
      bridgeAddress: rollup.bridge.bridgeAddress,
      scoreContract: rollup.scoreContract,
      maxRate: checked.maxRate,
      maxChangeRate: checked.maxChangeRate,
      rate: checked.rate,
    },
    {
      title: options.title,
      summary: checked.summary,
      metadata: checked.metadata,
      deposit,
    },
  );
  await writeJsonFileAtomically(options.out, proposal);
  report(out, rollup, deposit, proposal, options.out);
  return options.out;
}

/** What the options say, checked before the network is touched. */
interface CheckedOptions {
  operator: AccountAddresses;
  maxRate: Rate;
  maxChangeRate: Rate;
  rate: Rate;
  /** The forum post's https URL. */
  metadata: string;
  /** The summary, with the scoring policy named in it when one is given. */
  summary: string;
}

async function checkOptions(
  options: WhitelistOptions,
): Promise<CheckedOptions> {
  const operator = accountAddresses(options.operator, "--operator");
  const maxRate = parseRate(options.commissionMaxRate, "--commission-max-rate");
  const maxChangeRate = parseRate(
    options.commissionMaxChangeRate,
    "--commission-max-change-rate",
  );
  const rate = parseRate(options.commissionRate, "--commission-rate");
  checkRates(maxRate, maxChangeRate, rate);
  const metadata = forumUrl(options.metadata);
  const summary = await withPolicy(options.summary, options.policy);
  if (
    options.deposit !== undefined &&
    !/^\d+[a-zA-Z][a-zA-Z0-9/:._-]*$/.test(options.deposit)
  ) {
    throw new VipError(ERRORS.REGISTRY.PROPOSAL.DEPOSIT_INVALID, {
      deposit: options.deposit,
    });
  }
  if (!options.force && (await exists(path.resolve(options.out))))
    throw new VipError(ERRORS.REGISTRY.PROPOSAL.PROPOSAL_EXISTS, {
      file: options.out,
    });
  return { operator, maxRate, maxChangeRate, rate, metadata, summary };
}

/** What the rollup answers: its bridge and the scoring contract's open stage. */
interface RollupAnswers {
  bridge: BridgeInfo;
  scoreContract: string;
  openStage: bigint;
}

/**
 * The rollup's bridge, its address checked against its id's derivation, and
 * the scoring contract, checked to answer as a VipScore.
 */
async function checkRollup(context: WhitelistContext): Promise<RollupAnswers> {
  const bridge = await fetchBridgeInfo(context.rollupRestUrl);
  const derived = deriveBridgeAddress(bridge.bridgeId);
  if (derived !== bridge.bridgeAddress) {
    throw new VipError(ERRORS.REGISTRY.PROPOSAL.BRIDGE_ADDRESS_MISMATCH, {
      bridgeId: bridge.bridgeId,
      reported: bridge.bridgeAddress,
      derived,
    });
  }
  const scoreContract = await context.score.getAddress();
  let openStage: bigint;
  try {
    openStage = await context.score.openStage();
    await context.score.initStage();
  } catch (error) {
    throw new VipError(
      ERRORS.REGISTRY.PROPOSAL.NOT_A_VIPSCORE,
      { address: scoreContract, reason: reasonOf(error, "with code") },
      error,
    );
  }
  return { bridge, scoreContract, openStage };
}

/**
 * The base chain's side: the VIP module is there, the bridge is not yet
 * registered, and the program's stage is the contract's open stage.
 */
async function checkBaseChain(
  context: WhitelistContext,
  { bridge, openStage }: RollupAnswers,
): Promise<void> {
  await checkVipModule(context.l1RestUrl, context.vipModuleAddress);
  const registered = await fetchRegisteredBridgeIds(
    context.l1RestUrl,
    context.vipModuleAddress,
  );
  if (registered.includes(bridge.bridgeId)) {
    throw new VipError(ERRORS.REGISTRY.PROPOSAL.BRIDGE_REGISTERED, {
      bridgeId: bridge.bridgeId,
    });
  }
  const program = (
    await fetchVipStage(context.l1RestUrl, context.vipModuleAddress)
  ).stage;
  if (program > openStage) {
    throw new VipError(ERRORS.REGISTRY.PROPOSAL.STAGE_BEHIND_PROGRAM, {
      open: openStage,
      program,
      through:
        program - openStage > 1n
          ? ` through ${program - 1n}, one at a time,`
          : "",
      network: context.network,
    });
  }
  if (program < openStage) {
    throw new VipError(ERRORS.REGISTRY.PROPOSAL.STAGE_AHEAD_OF_PROGRAM, {
      open: openStage,
      program,
    });
  }
}

/**
 * The base chain's minimum deposit; Initia's documented one, with a warning,
 * when its gov params cannot be read.
 */
async function minDeposit(l1RestUrl: string, out: Output): Promise<string> {
  try {
    return await fetchMinDeposit(l1RestUrl);
  } catch (error) {
    out.warn(
      `the gov params could not be read (${reasonOf(error, "with code")}); the deposit is ` +
        `${FALLBACK_DEPOSIT}, Initia's documented one: check it, or pass --deposit`,
    );
    return FALLBACK_DEPOSIT;
  }
}

/**
 * Testnet rollups are onboarded by the VIP program team, not by proposal: the
 * file is written for one only with --force.
 */
function refuseTestnet(bridge: BridgeInfo, force: boolean, out: Output): void {
  if (bridge.l1ChainId === MAINNET_CHAIN_ID) return;
  out.warn(
    `the base chain is ${bridge.l1ChainId}, not ${MAINNET_CHAIN_ID}: testnet rollups ` +
      "are onboarded by contacting the VIP program team, not by a governance proposal",
  );
  if (!force)
    throw new VipError(ERRORS.REGISTRY.PROPOSAL.TESTNET_BASE_CHAIN, {
      chainId: bridge.l1ChainId,
    });
}

/** What was checked and written, and how to submit it. */
function report(
  out: Output,
  { bridge, scoreContract, openStage }: RollupAnswers,
  deposit: string,
  proposal: ReturnType<typeof whitelistProposal>,
  outPath: string,
): void {
  out.line(
    field(
      "bridge",
      `${bridge.bridgeId} at ${bridge.bridgeAddress} (derivation checked), ` +
        `base chain ${bridge.l1ChainId}`,
    ),
  );
  out.line(
    field(
      "contract",
      `${scoreContract}, open stage ${openStage} = the program's stage`,
    ),
  );
  out.line(field("deposit", deposit));
  out.line(
    "vip::register will be called with (decoded from the proposal's bytes):",
  );
  const [register] = proposal.messages;
  for (const line of describeRegisterArgs(
    defined(register, "a whitelist proposal holds one message").args,
  ))
    out.line(`  ${line}`);
  out.line(field("written", outPath));
  out.line(
    `submit it with: initiad tx gov submit-proposal ${outPath} --from <key> ` +
      `--chain-id ${bridge.l1ChainId} --gas auto --gas-prices <price>`,
  );
}

/**
 * The forum post's URL: governance shows it to voters, so it must be an https
 * link.
 */
function forumUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new VipError(ERRORS.REGISTRY.ENTRY.METADATA_NOT_URL, { value });
  }
  if (url.protocol !== "https:")
    throw new VipError(ERRORS.REGISTRY.ENTRY.METADATA_NOT_HTTPS, { value });
  return value;
}

/**
 * The summary with the scoring policy named in it (name, first stage,
 * sha256), so the rollup's published method is bound to its proposal.
 */
async function withPolicy(
  summary: string,
  policyPath: string | undefined,
): Promise<string> {
  if (policyPath === undefined) return summary;
  const policies = await loadPolicies(policyPath);
  const [policy] = policies;
  if (policy === undefined || policies.length !== 1)
    throw new VipError(ERRORS.REGISTRY.PROPOSAL.POLICY_COUNT, {
      file: policyPath,
      count: policies.length,
    });
  return (
    `${summary}\n\nScoring policy: ${policy.name} (${path.basename(policy.file)}), ` +
    `from stage ${policy.fromStage}, sha256 ${policy.sha256}.`
  );
}
