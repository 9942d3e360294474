import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { fetchVipStage } from "../../clients/l1-rest.js";
import { ignitionPath } from "../../config/package-files.js";
import { baseChain } from "../../config/settings.js";
import { journalledStartStage, runDeploy } from "../../contract/deploy.js";
import { deploymentDir } from "../../contract/deployment.js";
import { currentDeploymentId } from "../../contract/succession.js";
import { ERRORS } from "../../error-catalog.js";
import { VipError } from "../../errors.js";
import { connect } from "../../network/connect.js";
import { consoleOutput } from "../../output.js";
import { announceSigner, operatorSigner } from "../../signer/signer.js";

interface DeployArgs {
  startStage?: string;
  deploymentId?: string;
}

const action: NewTaskActionFunction<DeployArgs> = async (args, hre) => {
  // Checked before the network is touched: a typo never waits on a node.
  const given =
    args.startStage !== undefined
      ? {
          stage: parseStartStage(args.startStage, "--start-stage"),
          from: "--start-stage",
        }
      : {
          stage: parseStartStage(process.env.START_STAGE, "START_STAGE"),
          from: "START_STAGE",
        };
  // Only a network with vip settings reached over HTTP: an in-process
  // deployment would vanish with the command, its address worthless.
  const connection = await connect(hre);
  announceSigner(consoleOutput, await operatorSigner(connection));
  const chainId = (await connection.ethers.provider.getNetwork()).chainId;
  // After a correction, the chain's current deployment is the default (as
  // every task locates the contract), not the replaced one.
  const journalDir = deploymentDir(
    ignitionPath(hre),
    chainId,
    args.deploymentId ??
      (await currentDeploymentId(ignitionPath(hre), chainId)),
  );

  const fromJournal = await journalledStartStage(journalDir);
  let startStage: bigint;
  let source: string;
  if (fromJournal !== undefined) {
    if (given.stage !== undefined && given.stage !== fromJournal) {
      throw new VipError(ERRORS.CONTRACT.DEPLOYMENT.START_STAGE_MISMATCH, {
        journal: journalDir,
        journalled: fromJournal,
        from: given.from,
        given: given.stage,
      });
    }
    [startStage, source] = [
      fromJournal,
      "from the journal of the deployment being resumed",
    ];
  } else if (given.stage !== undefined) {
    [startStage, source] = [given.stage, `from ${given.from}`];
  } else {
    const { restUrl, moduleAddress } = await baseChain(
      connection.networkName,
      connection.networkConfig,
    );
    [startStage, source] = [
      (await fetchVipStage(restUrl, moduleAddress)).stage,
      "the base chain's current VIP stage",
    ];
    if (startStage === 0n)
      throw new VipError(ERRORS.CONTRACT.DEPLOYMENT.START_STAGE_ZERO);
  }
  const { address } = await runDeploy(
    connection,
    {
      startStage,
      startStageSource: source,
      deploymentId: args.deploymentId,
      journalDir,
    },
    consoleOutput,
  );
  consoleOutput.line(
    `save the contract address for the whitelist proposal: ${address}`,
  );
};

function parseStartStage(
  raw: string | undefined,
  from: string,
): bigint | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  if (
    !/^\d+$/.test(raw.trim()) ||
    BigInt(raw.trim()) === 0n ||
    BigInt(raw.trim()) >= 2n ** 64n
  ) {
    throw new VipError(ERRORS.CONTRACT.DEPLOYMENT.START_STAGE_INVALID, {
      from,
      value: raw,
    });
  }
  return BigInt(raw.trim());
}

export default action;
