import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";

import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { correctionJournalPath, type CorrectionEnv } from "./replay.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
import { ignitionPath as ignitionFolder } from "../config/package-files.js";
import { baseChain, taskFolder, vipUrl } from "../config/settings.js";
import { deployedAddress, deploymentDir } from "../contract/deployment.js";
import { locateScoreContract } from "../contract/locate.js";
import { parseStage } from "../contract/preflight.js";
import { refuseSuperseded } from "../contract/succession.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { Journal } from "../journal/journal.js";
import { connect, selectedNetwork } from "../network/connect.js";
import { consoleOutput } from "../output.js";
import type { CorrectionRequest } from "./correct.js";
import { loadPolicies, policiesFrom } from "../policy/load.js";
import { activityContext } from "../scoring/context.js";
import {
  type PolicyBoundOptions,
  policyBounds,
} from "../scoring/policy-bounds.js";
import { admitBeforeReading } from "../scoring/prepare.js";
import { announceSigner, operatorSigner } from "../signer/signer.js";

/** `stage:correct`'s options, as Hardhat parses them. */
interface CorrectionOptions extends PolicyBoundOptions {
  stage: string;
  scoresDir: string;
  policy?: string;
  allowEmpty: boolean;
  newDeploymentId?: string;
  dataDir?: string;
  journalDir?: string;
  contract?: string;
  deploymentId?: string;
}

/**
 * What a correction runs on, read and checked before anything is sent: the
 * options (the stage, the scores folder, the policy's header), the network
 * and its signer, the base chain and the rollup's REST API, and the contract
 * being corrected: the one a started correction journalled (it is superseded
 * once the correction made the new one current), else the chain's contract,
 * which must not be superseded already.
 */
export async function correctionSettings(
  hre: HardhatRuntimeEnvironment,
  args: CorrectionOptions,
): Promise<{
  stage: bigint;
  old: VipScore;
  env: CorrectionEnv;
  request: CorrectionRequest;
}> {
  const stage = parseStage(args.stage);
  const scoresDir = path.resolve(args.scoresDir);
  if ((await stat(scoresDir).catch(() => undefined))?.isDirectory() !== true)
    throw new VipError(ERRORS.AUTOPILOT.SETUP.SCORES_DIR_NOT_A_FOLDER, {
      dir: scoresDir,
    });
  // Every policy that scores stage N or a later one is admitted before
  // anything is read: the replay never stops half-way on a policy that
  // cannot run.
  if (args.policy !== undefined)
    await admitBeforeReading(
      policiesFrom(await loadPolicies(args.policy), stage),
      policyBounds(args, selectedNetwork(hre).config),
    );
  const connection = await connect(hre);
  const operator = await operatorSigner(connection);
  announceSigner(consoleOutput, operator);
  const chainId = (await connection.ethers.provider.getNetwork()).chainId;
  const journalDir = taskFolder(
    hre.config.paths.root,
    "journal",
    args.journalDir,
  );
  const ignitionPath = ignitionFolder(hre);
  const base = await baseChain(
    connection.networkName,
    connection.networkConfig,
  );
  const rollupRestUrl = await vipUrl(
    connection.networkName,
    connection.networkConfig,
    "rollupRestUrl",
  );
  const started = await startedCorrection(journalDir, chainId, stage);
  const old = await locateScoreContract(
    connection,
    {
      contract: started?.oldContract ?? args.contract,
      deploymentId: started === undefined ? args.deploymentId : undefined,
      ignitionPath,
    },
    operator.signer,
  );
  if (started === undefined) await refuseSuperseded(ignitionPath, chainId, old);
  const source =
    args.policy === undefined
      ? { scoresDir }
      : {
          scoresDir,
          policy: {
            path: args.policy,
            activity: (
              await activityContext(hre, {
                dataDir: args.dataDir,
                bounds: args,
              })
            ).ctx,
          },
        };
  return {
    stage,
    old,
    env: {
      connection,
      signer: operator.signer,
      chainId,
      network: connection.networkName,
      journalDir,
      ignitionPath,
      deploymentId: await newDeploymentId(
        args.newDeploymentId,
        started,
        { ignitionPath, chainId, stage, old: await old.getAddress() },
        correctionJournalPath(journalDir, chainId, stage),
      ),
      oldContract: await old.getAddress(),
      out: consoleOutput,
    },
    request: {
      stage,
      source,
      allowEmpty: args.allowEmpty,
      rollupRestUrl,
      base,
    },
  };
}

/**
 * The new contract's Ignition deployment id: the one a started correction
 * journalled (another given is refused: it would deploy a second contract),
 * else the one given, else `chain-<id>-from-stage-<N>-<old address's first
 * bytes>`; an id that already holds a deployment no journal of this
 * correction names is refused (a second correction of the same stage would
 * otherwise find the first one's contract "already deployed").
 */
async function newDeploymentId(
  given: string | undefined,
  started: { deploymentId: string } | undefined,
  where: { ignitionPath: string; chainId: bigint; stage: bigint; old: string },
  journal: string,
): Promise<string> {
  if (started !== undefined) {
    if (given !== undefined && given !== started.deploymentId)
      throw new VipError(
        ERRORS.AUTOPILOT.CORRECTION.CORRECTION_OTHER_DEPLOYMENT,
        {
          stage: where.stage,
          started: started.deploymentId,
          journal,
          given,
        },
      );
    return started.deploymentId;
  }
  const id =
    given ??
    `chain-${where.chainId}-from-stage-${where.stage}-${where.old.slice(2, 10).toLowerCase()}`;
  const dir = deploymentDir(where.ignitionPath, where.chainId, id);
  if ((await deployedAddress(dir)) !== undefined)
    throw new VipError(
      ERRORS.AUTOPILOT.CORRECTION.CORRECTION_DEPLOYMENT_TAKEN,
      {
        id,
        dir,
      },
    );
  return id;
}

/** The start of a correction of `stage` journalled on this chain, if any. */
async function startedCorrection(
  journalDir: string,
  chainId: bigint,
  stage: bigint,
): Promise<{ oldContract: string; deploymentId: string } | undefined> {
  const file = correctionJournalPath(journalDir, chainId, stage);
  if (!existsSync(file)) return undefined;
  const start = (
    await Journal.open<{
      type: string;
      oldContract?: string;
      deploymentId?: string;
    }>(file)
  ).records.find((r) => r.type === "start");
  return start?.oldContract === undefined || start.deploymentId === undefined
    ? undefined
    : { oldContract: start.oldContract, deploymentId: start.deploymentId };
}
