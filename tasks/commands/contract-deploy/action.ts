import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { ignitionPath } from "../../config/package-files.js";
import { fetchVipStage } from "../../clients/l1-rest.js";
import { baseChain } from "../../config/settings.js";
import { deploymentDir } from "../../contract/deployment.js";
import { VipError } from "../../errors.js";
import { connect } from "../../network/connect.js";
import { consoleOutput } from "../../output.js";
import { announceSigner, operatorSigner } from "../../signer/signer.js";
import { journalledStartStage, runDeploy } from "./run.js";

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
  const journalDir = deploymentDir(
    ignitionPath(hre),
    chainId,
    args.deploymentId,
  );

  const fromJournal = await journalledStartStage(journalDir);
  let startStage: bigint;
  let source: string;
  if (fromJournal !== undefined) {
    if (given.stage !== undefined && given.stage !== fromJournal) {
      throw new VipError(
        `the deployment in ${journalDir} was started with start stage ${fromJournal}, but ${given.from} is ${given.stage}: ` +
          `drop ${given.from} to resume it, or pass --deployment-id <new id> to deploy another contract`,
      );
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
      throw new VipError(
        "the base chain reports VIP stage 0, which no contract can start at: pass --start-stage <N> (or set START_STAGE)",
      );
  }
  await runDeploy(
    connection,
    {
      startStage,
      startStageSource: source,
      deploymentId: args.deploymentId,
      journalDir,
    },
    consoleOutput,
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
    throw new VipError(
      `${from} "${raw}" is not a stage number (a whole number from 1 to 2^64 - 1)`,
    );
  }
  return BigInt(raw.trim());
}

export default action;
