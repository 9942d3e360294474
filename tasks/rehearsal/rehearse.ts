import { copyFile } from "node:fs/promises";
import path from "node:path";

import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { rehearseAutopilot } from "./autopilot.js";
import { rehearseFunding, rehearseTransfer } from "./bridge.js";
import { rehearseCorrection } from "./correct-stage.js";
import { freshRehearsalFolders, type RehearsalFolders } from "./folder.js";
import { rehearseProposal, rehearseRegistryEntry } from "./onboarding.js";
import { rehearsePolicy } from "./policy.js";
import { deploySamplePolicy, type PolicyRehearsal } from "./sample-policy.js";
import {
  type VipScore,
  VipScore__factory,
} from "../../types/ethers-contracts/index.js";
import { showAccounts } from "../accounts/show-accounts.js";
import { describeHosts } from "../autopilot/recent-stages.js";
import { MAINNET_VIP_MODULE_ADDRESS } from "../config/constants.js";
import { runDeploy } from "../contract/deploy.js";
import { runFinalize } from "../contract/finalize-open-stage.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { type Connection, selectedNetwork } from "../network/connect.js";
import { runChainId } from "../node/chain-id.js";
import { runVersion } from "../node/version-check.js";
import { field, type Output } from "../output.js";
import { runStage } from "../program/stage-report.js";
import { registryEvmChainId } from "../registry/evm-chain-id.js";
import { buildReport } from "../report/build.js";
import { readScoreFile } from "../scores/read.js";
import { finalScoreFile } from "../scores/score-files.js";
import { runScoresUpdate } from "../scores/update.js";
import { type OperatorSigner, operatorSigner } from "../signer/signer.js";
import {
  type CometBftStandIn,
  startCometBftStandIn,
} from "../stand-ins/cometbft.js";
import {
  type L1RestStandIn,
  startL1RestStandIn,
} from "../stand-ins/l1-rest.js";
import {
  type RollupRestStandIn,
  startRollupRestStandIn,
} from "../stand-ins/rollup-rest.js";

const COSMOS_CHAIN_ID = "rehearsal-1";
const PROGRAM_STAGE = 15n;
const REHEARSAL_BRIDGE = 16n;

/**
 * The operator's whole flow, onboarding included, on Hardhat's in-process
 * network, with stand-ins for the rollup's CometBFT RPC and REST API and the
 * base chain's REST API on 127.0.0.1: accounts, version, chain-id, stage,
 * deploy, registry:entry, proposal:whitelist, scores:update (which reads every
 * score back), stage:finalize, stage, bridge:transfer (from the EVM, and from
 * the base chain with an op hook), stage:autopilot scoring a stage from the
 * sample policy, and the next stage scored from it command by command (index,
 * compute, push, finalize), then a wrong stage found by the audit and
 * corrected on a new contract, with its proposal, and the report of every
 * stage it scored. It needs no configuration and sends nothing off this
 * machine; it writes only under vip-rehearsal/ in the project, emptied first,
 * so every path it prints is there after it ends. `file` is the score file
 * it pushes first.
 */
export async function rehearse(
  hre: HardhatRuntimeEnvironment,
  file: string,
  out: Output,
): Promise<void> {
  const network = inProcessNetwork(hre);
  const folders = await freshRehearsalFolders(hre.config.paths.root);
  const standIns = await startStandIns();
  try {
    const rehearsal = await openRehearsal(hre, network, standIns, folders, out);
    const { score, programStage } = await rehearseOnboarding(rehearsal);
    await rehearseScores(rehearsal, score, programStage, file);
    await rehearseBridge(rehearsal);
    await rehearseScoring(rehearsal, score, programStage);
    out.line(
      `\nRehearsal complete. On the rollup: the same tasks with --network rollup (see README).`,
    );
  } finally {
    await Promise.all([
      standIns.cometbft.close(),
      standIns.baseChain.close(),
      standIns.rollupRest.close(),
    ]);
  }
}

/** The stand-ins the rehearsal's tasks reach, on 127.0.0.1. */
interface StandIns {
  cometbft: CometBftStandIn;
  baseChain: L1RestStandIn;
  rollupRest: RollupRestStandIn;
}

/** What every step acts on, and the numbered steps' counter. */
interface Rehearsal {
  connection: Connection;
  operator: OperatorSigner;
  chainId: bigint;
  standIns: StandIns;
  /** Where every step writes: the one folder the rehearsal keeps. */
  folders: RehearsalFolders;
  out: Output;
  /** Prints the next step's number and title. */
  step: (title: string) => void;
}

const STEPS = 16;

/**
 * The selected network, refused unless it lives in this process: the
 * rehearsal deploys, pushes and finalizes for real.
 */
function inProcessNetwork(hre: HardhatRuntimeEnvironment): { name: string } {
  const network = selectedNetwork(hre);
  if (network.config.type !== "edr-simulated")
    throw new VipError(ERRORS.REHEARSE.GENERAL.HTTP_NETWORK, {
      network: network.name,
    });
  return network;
}

async function startStandIns(): Promise<StandIns> {
  const cometbft = await startCometBftStandIn({ network: COSMOS_CHAIN_ID });
  const baseChain = await startL1RestStandIn({ stage: PROGRAM_STAGE });
  const rollupRest = await startRollupRestStandIn({
    bridgeId: REHEARSAL_BRIDGE,
  });
  return { cometbft, baseChain, rollupRest };
}

/**
 * The in-process chain, with the EVM chain id the registry derives from the
 * stand-in's Cosmos chain id, and its signer; announced.
 */
async function openRehearsal(
  hre: HardhatRuntimeEnvironment,
  network: { name: string },
  standIns: StandIns,
  folders: RehearsalFolders,
  out: Output,
): Promise<Rehearsal> {
  const chainId = registryEvmChainId(COSMOS_CHAIN_ID);
  const connection = await hre.network.create({
    network: network.name,
    override: { chainId: Number(chainId) },
  });
  const operator = await operatorSigner(connection);
  const { cometbft, rollupRest, baseChain } = standIns;
  out.line(
    `Rehearsal on Hardhat's in-process network, with stand-ins on this machine for the rollup's CometBFT RPC`,
  );
  out.line(
    `(${cometbft.url}) and REST API (${rollupRest.url}) and the base chain's REST API (${baseChain.url}).`,
  );
  out.line("Nothing is sent anywhere else.");
  out.line(
    `It writes everything under ${folders.root}${path.sep} (emptied first), and keeps it.`,
  );
  let n = 0;
  return {
    connection,
    operator,
    chainId,
    standIns,
    folders,
    out,
    step: (title) => out.line(`\n[${++n}/${STEPS}] ${title}`),
  };
}

/**
 * Steps 1 to 7: accounts, version, chain-id, stage, contract:deploy,
 * registry:entry and proposal:whitelist.
 */
async function rehearseOnboarding(
  rehearsal: Rehearsal,
): Promise<{ score: VipScore; programStage: bigint }> {
  const { connection, operator, chainId, folders, out, step } = rehearsal;
  const { cometbft, baseChain, rollupRest } = rehearsal.standIns;
  step(
    "accounts: the deployer, who is also the operator here, as 0x… and init1…",
  );
  await showAccounts(
    {
      signer: operator,
      provider: connection.ethers.provider,
      l1RestUrl: baseChain.url,
      operator,
    },
    out,
  );

  step("version: the rollup's version from abci_info");
  await runVersion(cometbft.url, out);

  step(
    "chain-id: eth_chainId, and the registry rule for the Cosmos chain id from /status",
  );
  await runChainId(connection, cometbft.url, out);

  step("stage: the program's current stage on the base chain");
  // No --network hint: the in-process network is refused by contract:deploy.
  const { programStage } = await runStage(
    baseChain.url,
    MAINNET_VIP_MODULE_ADDRESS,
    undefined,
    undefined,
    out,
  );

  step(
    `contract:deploy: VipScore through the Ignition module, starting at the program's stage ${programStage}`,
  );
  const deployed = await runDeploy(
    connection,
    {
      startStage: programStage,
      startStageSource: "the stand-in base chain's VIP stage",
    },
    out,
  );
  const score = VipScore__factory.connect(deployed.address, operator.signer);
  const standIns = {
    cometBftUrl: cometbft.url,
    rollupRestUrl: rollupRest.url,
    l1RestUrl: baseChain.url,
    vipModuleAddress: MAINNET_VIP_MODULE_ADDRESS,
  };

  step(
    "registry:entry: chain.json, assetlist.json and the profile, validated, into a scratch registry checkout",
  );
  await rehearseRegistryEntry(chainId, standIns, folders.registry, out);

  step(
    "proposal:whitelist: vip::register with the deployer as operator, checked, and read back from its bytes",
  );
  await rehearseProposal(score, operator.hex, standIns, folders.whitelist, out);
  return { score, programStage };
}

/**
 * Steps 8 to 10: the sample file pushed to the program's stage (and kept in
 * the scores folder as the stage's final file, for the report), the stage
 * finalized once the program moved on, and both side by side.
 */
async function rehearseScores(
  { connection, operator, standIns, folders, out, step }: Rehearsal,
  score: VipScore,
  programStage: bigint,
  file: string,
): Promise<void> {
  const { signer } = operator;
  const { baseChain } = standIns;
  const display = path.relative(process.cwd(), file) || file;
  step(
    `scores:update --stage ${programStage} --file ${display} (journalled, pipelined, proven by its events)`,
  );
  const scores = await readScoreFile(file);
  await runScoresUpdate(
    score,
    signer,
    { ...scores, path: display },
    {
      stage: programStage,
      network: connection.networkName,
      dryRun: false,
      replace: false,
      skipUnchanged: false,
      maxInFlight: 0,
      journalDir: folders.journal,
      interactive: false,
      intent: "final",
    },
    out,
  );
  const kept = finalScoreFile(folders.scores, programStage);
  await copyFile(file, kept);
  out.line(field("kept", `${kept} (a copy, for the report)`));

  // The base chain's clock reaches the stage's end: the stand-in's program
  // moves on to the next stage, in its own window, as the real one does.
  baseChain.state.now = baseChain.state.stageEndTime;
  step(
    `stage:finalize --stage ${programStage} (the base chain's clock passed its end: ` +
      `the program has moved on to stage ${programStage + 1n})`,
  );
  await runFinalize(
    score,
    signer,
    programStage,
    { journalDir: folders.journal, network: connection.networkName },
    out,
  );

  step("stage: the program and the contract, side by side");
  await runStage(
    baseChain.url,
    MAINNET_VIP_MODULE_ADDRESS,
    score,
    undefined,
    out,
    (open) =>
      describeHosts(
        score,
        open,
        { restUrl: baseChain.url, moduleAddress: MAINNET_VIP_MODULE_ADDRESS },
        undefined,
        out,
      ),
  );
}

/**
 * Steps 11 and 12: bridge:transfer from the EVM through the stand-in router,
 * then from the base chain with the op hook.
 */
async function rehearseBridge({
  connection,
  operator,
  standIns,
  folders,
  out,
  step,
}: Rehearsal): Promise<void> {
  const { baseChain, rollupRest } = standIns;
  const restUrls = {
    [baseChain.state.chain.chainId]: baseChain.url,
    [rollupRest.state.chain.chainId]: rollupRest.url,
  };
  step(
    "bridge:transfer: a token moved through the stand-in routing API (approval, send, track once, status)",
  );
  await rehearseTransfer(
    connection,
    operator,
    COSMOS_CHAIN_ID,
    restUrls,
    folders.journal,
    out,
  );

  step(
    "bridge:transfer from the base chain: fund the deployer on the rollup " +
      "(a Cosmos deposit, with the op hook it requires)",
  );
  baseChain.state.balances[operator.bech32] = [
    { denom: "uinit", amount: "5000000" },
  ];
  await rehearseFunding(
    connection,
    operator,
    { base: baseChain.state.chain, rollup: rollupRest.state.chain },
    restUrls,
    folders.journal,
    out,
  );
}

/**
 * Steps 13 to 16: stages scored from the sample policy, by the autopilot and
 * command by command, a wrong stage corrected, then the report of every
 * stage. Steps 13 and 14 move the in-process chain's clock past a stage's
 * end: they come after the transfers, whose chain keeps the time they
 * started in.
 */
async function rehearseScoring(
  { connection, operator, standIns, folders, out, step }: Rehearsal,
  score: VipScore,
  programStage: bigint,
): Promise<void> {
  const { signer } = operator;
  const sample = await deploySamplePolicy(signer, folders.policy);
  const rehearsal: PolicyRehearsal = {
    connection,
    score,
    signer,
    sample,
    baseChain: {
      url: standIns.baseChain.url,
      state: standIns.baseChain.state,
      moduleAddress: MAINNET_VIP_MODULE_ADDRESS,
    },
    journalDir: folders.journal,
    scoresDir: folders.scores,
    indexDir: folders.index,
    out,
  };
  step(
    `stage:autopilot --policy: stage ${programStage + 1n} scored from the sample policy ` +
      "on its own TradeLog contract, live while it runs, then final and finalized " +
      "once both clocks pass its end",
  );
  await rehearseAutopilot(rehearsal);

  step(
    "scores from the rollup's activity, command by command: scores:index, scores:compute, " +
      `scores:update, stage:finalize for stage ${programStage + 2n}`,
  );
  await rehearsePolicy(rehearsal);

  const wrong = programStage + 3n;
  step(
    `a wrong stage and its correction: stage ${wrong} finalized from a broken job's file, ` +
      "found by scores:audit, corrected by stage:correct --policy on a new contract, the proposal written",
  );
  // The whitelist proposal of the onboarding steps has passed by now.
  standIns.baseChain.state.registeredBridges.push(REHEARSAL_BRIDGE);
  const corrected = await rehearseCorrection({
    ...rehearsal,
    rollupRestUrl: standIns.rollupRest.url,
    bridgeId: REHEARSAL_BRIDGE,
    outDir: folders.correction,
  });
  out.line(
    field(
      "proposal",
      `${corrected.proposal}, with forum-post.md and changed-addresses.csv beside it`,
    ),
  );

  step(
    `scores:report: every stage the rehearsal pushed and finalized, ${programStage} to ${wrong}`,
  );
  const replaced = VipScore__factory.connect(corrected.newContract, signer);
  await writeRehearsalReport(rehearsal, folders.report, (stage) =>
    stage >= wrong ? replaced : score,
  );
}

/**
 * The report of the stages the rehearsal scored, as `scores:report` writes
 * it from the scores folder: each stage checked as finalized on the contract
 * that holds it (`contractOf`: the corrected stage is on the new one).
 */
async function writeRehearsalReport(
  { scoresDir, sample, out }: PolicyRehearsal,
  reportDir: string,
  contractOf: (stage: bigint) => VipScore,
): Promise<void> {
  const { stages } = await buildReport({
    scoresDir,
    out: reportDir,
    policy: sample.policyPath,
    finalizedOnChain: async (stage) =>
      (await contractOf(stage).stages(stage)).isFinalized,
  });
  out.line(
    field(
      "report",
      `stages ${stages.join(", ")}: ${path.join(reportDir, "index.html")} ` +
        "(scores:report; open it in a browser)",
    ),
  );
}
