import {
  deploy,
  type DeploymentResult,
  DeploymentResultType,
} from "@nomicfoundation/ignition-core";
import {
  formatEther,
  getAddress,
  type Provider,
  type TransactionReceipt,
} from "ethers";

import { maxCost, transactionOverrides, withMargin } from "./confirm.js";
import {
  deployedAddress,
  deploymentTransaction,
  PACKAGED_ARTIFACTS_ONLY,
} from "./deployment.js";
import VipScoreModule from "../../ignition/modules/VipScore.js";
import { VipScore__factory } from "../../types/ethers-contracts/index.js";
import { IGNITION_FUTURE_ID, IGNITION_MODULE_ID } from "../config/constants.js";
import { ERRORS } from "../error-catalog.js";
import { isVipError, VipError, defined } from "../errors.js";
import type { Connection } from "../network/connect.js";
import { field, formatNumber, type Output } from "../output.js";
import { ensureFunds } from "../signer/funds.js";

export interface DeployOptions {
  startStage: bigint;
  /** Where the start stage came from, for the report. */
  startStageSource: string;
  deploymentId?: string;
  /**
   * The deployment's journal folder; undefined on in-process networks, where
   * Ignition keeps no journal.
   */
  journalDir?: string;
}

export interface DeployReport {
  address: string;
  startStage: bigint;
  transactionHash?: string;
  blockNumber?: number;
  gasUsed?: bigint;
  alreadyDeployed: boolean;
}

/**
 * Deploys the scoring contract through the Ignition module. On an HTTP network
 * the journal makes a re-run resume (a sent transaction is waited for, not sent
 * again) or report the finished deployment.
 */
export async function runDeploy(
  connection: Connection,
  options: DeployOptions,
  out: Output,
): Promise<DeployReport> {
  const before =
    options.journalDir === undefined
      ? undefined
      : await deployedAddress(options.journalDir);
  out.line(
    field("start stage", `${options.startStage} (${options.startStageSource})`),
  );
  if (before === undefined)
    await ensureDeployFunds(connection, options.startStage);
  let address: string;
  try {
    address = await deployModule(connection, options);
  } catch (error) {
    if (isVipError(error, ERRORS.CONTRACT.DEPLOYMENT.DEPLOY_INCOMPLETE))
      throw error;
    throw new VipError(
      ERRORS.CONTRACT.DEPLOYMENT.DEPLOY_FAILED,
      { reason: error instanceof Error ? error.message : String(error) },
      error,
    );
  }

  const provider = connection.ethers.provider;
  const journalled =
    options.journalDir === undefined
      ? undefined
      : await deploymentTransaction(options.journalDir);
  const hash =
    journalled?.txHash ?? (await findCreation(provider, address))?.hash;
  const receipt =
    hash === undefined ? null : await provider.getTransactionReceipt(hash);
  const alreadyDeployed = before !== undefined;
  out.line(
    field(
      alreadyDeployed ? "already deployed" : "deployed",
      `VipScore at ${address}`,
    ),
  );
  if (options.journalDir !== undefined)
    out.line(field("journal", options.journalDir));
  if (receipt !== null) {
    out.line(field("transaction", receipt.hash));
    out.line(field("block", receipt.blockNumber));
    out.line(
      field(
        "gas",
        `${formatNumber(receipt.gasUsed)} at ${formatNumber(receipt.gasPrice)} wei: ` +
          `paid ${formatEther(receipt.fee)} (native token)`,
      ),
    );
  }
  return {
    address,
    startStage: options.startStage,
    transactionHash: receipt?.hash,
    blockNumber: receipt?.blockNumber,
    gasUsed: receipt?.gasUsed,
    alreadyDeployed,
  };
}

/**
 * Runs the Ignition module with Ignition's own engine on the connection's
 * provider: no Ignition plugin is needed in the project (Hardhat allows one
 * Ignition extension, ethers or viem, and the user's project may have chosen
 * viem), and the module deploys from the packaged artifact, so nothing is
 * compiled.
 */
async function deployModule(
  connection: Connection,
  options: DeployOptions,
): Promise<string> {
  const accounts = (await connection.provider.request({
    method: "eth_accounts",
  })) as string[];
  const result = await deploy({
    provider: connection.provider,
    deploymentDir: options.journalDir,
    artifactResolver: PACKAGED_ARTIFACTS_ONLY,
    ignitionModule: VipScoreModule,
    deploymentParameters: {
      [IGNITION_MODULE_ID]: { startStage: options.startStage },
    },
    accounts,
    defaultSender: accounts[0],
  });
  if (result.type === DeploymentResultType.SUCCESSFUL_DEPLOYMENT)
    return getAddress(
      defined(
        result.contracts[IGNITION_FUTURE_ID],
        "a successful deployment of the module holds its one future",
      ).address,
    );
  throw new VipError(ERRORS.CONTRACT.DEPLOYMENT.DEPLOY_INCOMPLETE, {
    problems: describeFailedDeployment(result),
  });
}

/**
 * Ignition's result of a deployment that did not complete, in one line per
 * problem.
 */
function describeFailedDeployment(
  result: Exclude<
    DeploymentResult,
    { type: DeploymentResultType.SUCCESSFUL_DEPLOYMENT }
  >,
): string {
  switch (result.type) {
    case DeploymentResultType.VALIDATION_ERROR:
    case DeploymentResultType.RECONCILIATION_ERROR:
      return Object.entries(result.errors)
        .map(([future, errors]) => `${future}: ${errors.join("; ")}`)
        .join("\n");
    case DeploymentResultType.PREVIOUS_RUN_ERROR:
      return Object.entries(result.errors)
        .map(
          ([future, errors]) =>
            `${future} failed in an earlier run: ${errors.join("; ")}`,
        )
        .join("\n");
    case DeploymentResultType.EXECUTION_ERROR: {
      const failed = result.failed.map((f) => `${f.futureId}: ${f.error}`);
      const timedOut = result.timedOut.map(
        (f) =>
          `${f.futureId}: not confirmed in time; run the same command again to resume`,
      );
      const held = result.held.map((f) => `${f.futureId}: held (${f.reason})`);
      return (
        [...failed, ...timedOut, ...held].join("\n") ||
        "Ignition stopped without a reason"
      );
    }
  }
}

/**
 * Refuses, before Ignition sends anything, a deployer that cannot pay for the
 * deployment.
 */
async function ensureDeployFunds(
  connection: Connection,
  startStage: bigint,
): Promise<void> {
  const provider = connection.ethers.provider;
  const [deployer] = await connection.ethers.getSigners();
  const from = await defined(
    deployer,
    "operatorSigner found an account to sign with",
  ).getAddress();
  const gas = await deploymentGas(provider, from, startStage);
  await ensureFunds(
    provider,
    from,
    maxCost(await transactionOverrides(provider, withMargin(gas))),
    "the deployment of VipScore",
  );
}

/** What deploying VipScore at `startStage` from `from` costs, by the node's estimate. */
export async function deploymentGas(
  provider: Provider,
  from: string,
  startStage: bigint,
): Promise<bigint> {
  const transaction = await new VipScore__factory().getDeployTransaction(
    startStage,
  );
  return provider.estimateGas({ ...transaction, from });
}

/**
 * The start stage a deployment already chose, from its journal: an interrupted
 * deployment must resume with the stage it started with, whatever the base
 * chain says now.
 */
export async function journalledStartStage(
  journalDir: string | undefined,
): Promise<bigint | undefined> {
  if (journalDir === undefined) return undefined;
  const tx = await deploymentTransaction(journalDir);
  const param = tx?.params?.[0];
  return param === undefined
    ? undefined
    : BigInt(param as string | number | bigint);
}

/**
 * On networks without a journal, the creation transaction is found among the
 * latest blocks.
 */
async function findCreation(
  provider: Provider,
  address: string,
): Promise<TransactionReceipt | undefined> {
  const latest = await provider.getBlockNumber();
  for (let n = latest; n >= Math.max(0, latest - 20); n--) {
    const block = await provider.getBlock(n);
    for (const hash of block?.transactions ?? []) {
      const receipt = await provider.getTransactionReceipt(hash);
      if (
        receipt?.contractAddress !== null &&
        receipt?.contractAddress !== undefined &&
        getAddress(receipt.contractAddress) === address
      )
        return receipt;
    }
  }
  return undefined;
}
