import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { NewTaskActionFunction } from "hardhat/types/tasks";

import {
  type VipScore,
  VipScore__factory,
} from "../../../types/ethers-contracts/index.js";
import { packageFile } from "../../config/package-files.js";
import { ERRORS } from "../../error-catalog.js";
import { VipError } from "../../errors.js";
import { type Connection, selectedNetwork } from "../../network/connect.js";
import { registryEvmChainId } from "../../registry/evm-chain-id.js";
import { runChainId } from "../chain-id/run.js";
import { MAINNET_VIP_MODULE_ADDRESS } from "../../config/constants.js";
import { runDeploy } from "../../contract/deploy.js";
import { type OperatorSigner, operatorSigner } from "../../signer/signer.js";
import { consoleOutput, field, type Output } from "../../output.js";
import { buildReport } from "../../report/build.js";
import { taskFolder } from "../../config/settings.js";
import { runScoresUpdate } from "../../scores/update.js";
import { readScoreFile } from "../../scores/read.js";
import { runStage } from "../stage/run.js";
import { runFinalize } from "../stage-finalize/run.js";
import {
  type CometBftStandIn,
  startCometBftStandIn,
} from "../../stand-ins/cometbft.js";
import {
  type L1RestStandIn,
  startL1RestStandIn,
} from "../../stand-ins/l1-rest.js";
import { runVersion } from "../version/run.js";
import { showAccounts } from "../accounts/run.js";
import {
  type RollupRestStandIn,
  startRollupRestStandIn,
} from "../../stand-ins/rollup-rest.js";
import { rehearseAutopilot } from "./autopilot.js";
import { rehearseCorrection } from "./correction.js";
import { rehearseFunding, rehearseTransfer } from "./bridge.js";
import { rehearseProposal, rehearseRegistryEntry } from "./onboarding.js";
import { rehearsePolicy } from "./policy.js";
import { deploySamplePolicy, type PolicyRehearsal } from "./sample-policy.js";

interface RehearseArgs {
  file?: string;
}

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
 * corrected on a new contract, with its proposal. It needs no configuration
 * and sends nothing off this machine.
 */
const action: NewTaskActionFunction<RehearseArgs> = async (args, hre) => {
  const out = consoleOutput;
  const network = inProcessNetwork(hre);
  const file = args.file ?? (await packageFile("scripts", "sample-scores.csv"));
  const standIns = await startStandIns();
  const journalDir = await mkdtemp(path.join(tmpdir(), "vip-rehearsal-"));
  try {
    const rehearsal = await openRehearsal(
      hre,
      network,
      standIns,
      journalDir,
      out,
    );
    const { score, programStage } = await rehearseOnboarding(rehearsal);
    await rehearseScores(rehearsal, score, programStage, file);
    await rehearseBridge(rehearsal);
    await rehearseScoring(
      rehearsal,
      score,
      programStage,
      taskFolder(hre.config.paths.root, "report"),
      path.join(hre.config.paths.root, "vip-correction", "rehearsal"),
    );
    out.line(
      `\nRehearsal complete. On the rollup: the same tasks with --network rollup (see README).`,
    );
  } finally {
    await Promise.all([
      standIns.cometbft.close(),
      standIns.baseChain.close(),
      standIns.rollupRest.close(),
      rm(journalDir, { recursive: true, force: true }),
    ]);
  }
};

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
  journalDir: string;
  out: Output;
  /** Prints the next step's number and title. */
  step: (title: string) => void;
}

const STEPS = 15;

/**
 * The selected network, refused unless it lives in this process: the
 * rehearsal deploys, pushes and finalizes for real.
 */
function inProcessNetwork(hre: HardhatRuntimeEnvironment): { name: string } {
  const network = selectedNetwork(hre);
  if (network.config.type !== "edr-simulated")
    throw new VipError(ERRORS.REHEARSE.HTTP_NETWORK, {
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
  journalDir: string,
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
  let n = 0;
  return {
    connection,
    operator,
    chainId,
    standIns,
    journalDir,
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
  const { connection, operator, chainId, out, step } = rehearsal;
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
  const { programStage } = await runStage(
    baseChain.url,
    MAINNET_VIP_MODULE_ADDRESS,
    undefined,
    connection.networkName,
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
  await rehearseRegistryEntry(chainId, standIns, out);

  step(
    "proposal:whitelist: vip::register with the deployer as operator, checked, and read back from its bytes",
  );
  await rehearseProposal(score, operator.hex, standIns, out);
  return { score, programStage };
}

/**
 * Steps 8 to 10: the sample file pushed to the program's stage, the stage
 * finalized once the program moved on, and both side by side.
 */
async function rehearseScores(
  { connection, operator, standIns, journalDir, out, step }: Rehearsal,
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
      journalDir,
      interactive: false,
      intent: "final",
    },
    out,
  );

  baseChain.state.stage = programStage + 1n;
  step(
    `stage:finalize --stage ${programStage} (the program has moved on to stage ${programStage + 1n})`,
  );
  await runFinalize(
    score,
    signer,
    programStage,
    { journalDir, network: connection.networkName },
    out,
  );

  step("stage: the program and the contract, side by side");
  await runStage(
    baseChain.url,
    MAINNET_VIP_MODULE_ADDRESS,
    score,
    connection.networkName,
    out,
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
  await rehearseTransfer(connection, operator, COSMOS_CHAIN_ID, restUrls, out);

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
    out,
  );
}

/**
 * Steps 13 and 14: stages scored from the sample policy, by the autopilot and
 * command by command. Both move the in-process chain's clock past a stage's
 * end: they come after the transfers, whose chain keeps the time they started
 * in.
 */
async function rehearseScoring(
  { connection, operator, standIns, journalDir, out, step }: Rehearsal,
  score: VipScore,
  programStage: bigint,
  reportDir: string,
  correctionDir: string,
): Promise<void> {
  const { signer } = operator;
  const sample = await deploySamplePolicy(signer, journalDir);
  const scoresDir = path.join(journalDir, "scores");
  const rehearsal = {
    connection,
    score,
    signer,
    sample,
    baseChain: {
      url: standIns.baseChain.url,
      state: standIns.baseChain.state,
      moduleAddress: MAINNET_VIP_MODULE_ADDRESS,
    },
    journalDir,
    scoresDir,
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
  await writeRehearsalReport(rehearsal, reportDir);

  step(
    `a wrong stage and its correction: stage ${programStage + 3n} finalized from a broken job's file, ` +
      "found by scores:audit, corrected by stage:correct --policy on a new contract, the proposal written",
  );
  // The whitelist proposal of the onboarding steps has passed by now.
  standIns.baseChain.state.registeredBridges.push(REHEARSAL_BRIDGE);
  const proposal = await rehearseCorrection({
    ...rehearsal,
    rollupRestUrl: standIns.rollupRest.url,
    bridgeId: REHEARSAL_BRIDGE,
    outDir: correctionDir,
  });
  out.line(
    field(
      "proposal",
      `${proposal}, with forum-post.md and changed-addresses.csv beside it`,
    ),
  );
}

/**
 * The report of the stages the rehearsal scored, as `scores:report` writes
 * it, kept in the project (the rest of the rehearsal is thrown away).
 */
async function writeRehearsalReport(
  { scoresDir, sample, score, out }: PolicyRehearsal,
  reportDir: string,
): Promise<void> {
  const { stages } = await buildReport({
    scoresDir,
    out: reportDir,
    policy: sample.policyPath,
    finalizedOnChain: async (stage) => (await score.stages(stage)).isFinalized,
  });
  out.line(
    field(
      "report",
      `stages ${stages.join(", ")}: ${path.join(reportDir, "index.html")} ` +
        "(scores:report; open it in a browser)",
    ),
  );
}

export default action;
