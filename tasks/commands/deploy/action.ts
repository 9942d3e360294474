import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { ignitionPath } from "../../config/package-files.js";
import { fetchVipStage } from "../../clients/l1-rest.js";
import { vipModuleAddress, vipUrl } from "../../config/settings.js";
import { deploymentDir } from "../../contract/deployment.js";
import { VipError } from "../../errors.js";
import { connect } from "../../network/connect.js";
import { consoleOutput } from "../../output.js";
import { announceSigner, operatorSigner } from "../../signer/signer.js";
import { journalledStartStage, runDeploy } from "./run.js";

interface DeployArgs {
  deploymentId?: string;
}

const action: NewTaskActionFunction<DeployArgs> = async (args, hre) => {
  const connection = await connect(hre);
  announceSigner(consoleOutput, await operatorSigner(connection));
  const chainId = (await connection.ethers.provider.getNetwork()).chainId;
  const journalDir =
    connection.networkConfig.type === "http"
      ? deploymentDir(ignitionPath(hre), chainId, args.deploymentId)
      : undefined;

  const fromEnvironment = parseStartStage(process.env.START_STAGE);
  const fromJournal = await journalledStartStage(journalDir);
  let startStage: bigint;
  let source: string;
  if (fromJournal !== undefined) {
    if (fromEnvironment !== undefined && fromEnvironment !== fromJournal) {
      throw new VipError(
        `the deployment in ${journalDir} was started with start stage ${fromJournal}, but START_STAGE is ${fromEnvironment}: ` +
          "unset START_STAGE to resume it, or pass --deployment-id <new id> to deploy another contract",
      );
    }
    [startStage, source] = [
      fromJournal,
      "from the journal of the deployment being resumed",
    ];
  } else if (fromEnvironment !== undefined) {
    [startStage, source] = [fromEnvironment, "from START_STAGE"];
  } else {
    const restUrl = await vipUrl(
      connection.networkName,
      connection.networkConfig,
      "l1RestUrl",
    );
    const moduleAddress = await vipModuleAddress(
      connection.networkName,
      connection.networkConfig,
    );
    [startStage, source] = [
      (await fetchVipStage(restUrl, moduleAddress)).stage,
      "the base chain's current VIP stage",
    ];
    if (startStage === 0n)
      throw new VipError(
        "the base chain reports VIP stage 0, which no contract can start at: set START_STAGE",
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

function parseStartStage(raw: string | undefined): bigint | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  if (
    !/^\d+$/.test(raw.trim()) ||
    BigInt(raw.trim()) === 0n ||
    BigInt(raw.trim()) >= 2n ** 64n
  ) {
    throw new VipError(
      `START_STAGE="${raw}" is not a stage number (a whole number from 1 to 2^64 - 1)`,
    );
  }
  return BigInt(raw.trim());
}

export default action;
