import { access } from "node:fs/promises";
import path from "node:path";

import type { VipScore } from "../../../types/ethers-contracts/index.js";
import {
  checkVipModule,
  fetchMinDeposit,
  fetchRegisteredBridgeIds,
  fetchVipStage,
} from "../../clients/l1-rest.js";
import { fetchBridgeInfo } from "../../clients/rollup-rest.js";
import { firstLine, VipError, defined } from "../../errors.js";
import { writeJsonFileAtomically } from "../../files/json.js";
import { field, type Output } from "../../output.js";
import { loadPolicies } from "../../policy/load.js";
import { deriveBridgeAddress } from "../../proposal/bridge-address.js";
import { checkRates, parseRate } from "../../proposal/rates.js";
import {
  describeRegisterArgs,
  whitelistProposal,
} from "../../proposal/whitelist.js";
import { accountAddresses } from "../../signer/addresses.js";

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
  const operator = accountAddresses(options.operator, "--operator");
  const maxRate = parseRate(options.commissionMaxRate, "--commission-max-rate");
  const maxChangeRate = parseRate(
    options.commissionMaxChangeRate,
    "--commission-max-change-rate",
  );
  const rate = parseRate(options.commissionRate, "--commission-rate");
  checkRates(maxRate, maxChangeRate, rate);
  const metadata = forumUrl(options.metadata);
  const title = options.title;
  const summary = await withPolicy(options.summary, options.policy);
  const outPath = options.out;
  if (
    options.deposit !== undefined &&
    !/^\d+[a-zA-Z][a-zA-Z0-9/:._-]*$/.test(options.deposit)
  ) {
    throw new VipError(
      `--deposit ${options.deposit} is not a coin amount such as 100000000uinit`,
    );
  }
  if (!options.force && (await exists(outPath)))
    throw new VipError(`${outPath} exists: pass --force to overwrite it`);

  const bridge = await fetchBridgeInfo(context.rollupRestUrl);
  const derived = deriveBridgeAddress(bridge.bridgeId);
  if (derived !== bridge.bridgeAddress) {
    throw new VipError(
      `the rollup reports bridge ${bridge.bridgeId} at ${bridge.bridgeAddress}, but that bridge's address is ${derived}: ` +
        "check ROLLUP_REST_URL points at this rollup",
    );
  }
  const scoreContract = await context.score.getAddress();
  let openStage: bigint;
  try {
    openStage = await context.score.openStage();
    await context.score.initStage();
  } catch (error) {
    throw new VipError(
      `the contract at ${scoreContract} does not answer as a VipScore (openStage, initStage): ${firstLine(error)}`,
    );
  }

  await checkVipModule(context.l1RestUrl, context.vipModuleAddress);
  const registered = await fetchRegisteredBridgeIds(
    context.l1RestUrl,
    context.vipModuleAddress,
  );
  if (registered.includes(bridge.bridgeId)) {
    throw new VipError(
      `bridge ${bridge.bridgeId} is already registered in the VIP program: vip::register would abort; no proposal is needed`,
    );
  }
  const programStage = (
    await fetchVipStage(context.l1RestUrl, context.vipModuleAddress)
  ).stage;
  if (programStage !== openStage) {
    throw new VipError(
      `the contract's open stage is ${openStage}, but the VIP program is at stage ${programStage}: ` +
        (openStage < programStage
          ? `finalize stage ${openStage}${programStage - openStage > 1n ? ` through ${programStage - 1n}, one at a time,` : ""} first ` +
            `(npx hardhat stage:finalize --stage ${openStage} --network ${context.network})`
          : "is this the right base chain?"),
    );
  }
  let deposit = options.deposit;
  if (deposit === undefined) {
    try {
      deposit = await fetchMinDeposit(context.l1RestUrl);
    } catch (error) {
      deposit = FALLBACK_DEPOSIT;
      out.warn(
        `the gov params could not be read (${firstLine(error)}); the deposit is ${deposit}, Initia's documented one: check it, or pass --deposit`,
      );
    }
  }

  const testnet = bridge.l1ChainId !== MAINNET_CHAIN_ID;
  if (testnet) {
    out.warn(
      `the base chain is ${bridge.l1ChainId}, not ${MAINNET_CHAIN_ID}: testnet rollups are onboarded by contacting the VIP program team, ` +
        "not by a governance proposal",
    );
    if (!options.force)
      throw new VipError(
        `not written: the base chain ${bridge.l1ChainId} is a testnet; pass --force to write the file anyway`,
      );
  }

  const proposal = whitelistProposal(
    context.vipModuleAddress,
    {
      operator: operator.hex,
      bridgeId: bridge.bridgeId,
      bridgeAddress: bridge.bridgeAddress,
      scoreContract,
      maxRate,
      maxChangeRate,
      rate,
    },
    { title, summary, metadata, deposit },
  );
  await writeJsonFileAtomically(outPath, proposal);

  out.line(
    field(
      "bridge",
      `${bridge.bridgeId} at ${bridge.bridgeAddress} (derivation checked), base chain ${bridge.l1ChainId}`,
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
  for (const line of describeRegisterArgs(
    defined(proposal.messages[0], "proposal.messages[0]").args,
  ))
    out.line(`  ${line}`);
  out.line(field("written", outPath));
  out.line(
    `submit it with: initiad tx gov submit-proposal ${outPath} --from <key> --chain-id ${bridge.l1ChainId} --gas auto --gas-prices <price>`,
  );
  return outPath;
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
    throw new VipError(
      `--metadata ${value} is not a URL: give the https URL of the proposal's forum post`,
    );
  }
  if (url.protocol !== "https:")
    throw new VipError(
      `--metadata ${value} is not an https URL: give the https URL of the forum post`,
    );
  return value;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
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
    throw new VipError(
      `--policy ${policyPath} holds ${policies.length} policies: name the one policy file the proposal publishes`,
    );
  return `${summary}\n\nScoring policy: ${policy.name} (${path.basename(policy.file)}), from stage ${policy.fromStage}, sha256 ${policy.sha256}.`;
}
