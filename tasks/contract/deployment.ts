import { existsSync } from "node:fs";
import path from "node:path";

import {
  listTransactions,
  type TransactionInfo,
} from "@nomicfoundation/ignition-core";
import { isAddress } from "ethers";

import { IGNITION_FUTURE_ID } from "../config/constants.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { readJsonFile } from "../files/json.js";
import { safeText } from "../output.js";

/**
 * Ignition's artifact resolver for this package: the VipScore module deploys
 * from its packaged artifact object, so Ignition never needs to look one up by
 * name, neither to deploy nor to list a deployment's transactions.
 */
export const PACKAGED_ARTIFACTS_ONLY = {
  loadArtifact: async (name: string): Promise<never> => {
    throw new VipError(ERRORS.CONTRACT.DEPLOYMENT.NO_PACKAGED_ARTIFACT, {
      name,
    });
  },
  getBuildInfo: async () => undefined,
};

/**
 * Where Ignition keeps a deployment's journal: `ignition/deployments/<id>/`, id
 * `chain-<chainId>` by default.
 */
export function deploymentDir(
  ignitionPath: string,
  chainId: bigint,
  deploymentId?: string,
): string {
  return path.join(
    ignitionPath,
    "deployments",
    deploymentId ?? `chain-${chainId}`,
  );
}

/**
 * The scoring contract's address recorded by a completed deployment, if any.
 */
export async function deployedAddress(
  dir: string,
): Promise<string | undefined> {
  const file = path.join(dir, "deployed_addresses.json");
  if (!existsSync(file)) return undefined;
  const unreadable = (reason: string, cause?: unknown) =>
    new VipError(
      ERRORS.CONTRACT.DEPLOYMENT.DEPLOYMENT_RECORD_UNREADABLE,
      { file, reason },
      cause,
    );
  const addresses = await readJsonFile(file, {
    unreadable,
    notJson: unreadable,
  });
  const address =
    typeof addresses === "object" && addresses !== null
      ? (addresses as Record<string, unknown>)[IGNITION_FUTURE_ID]
      : undefined;
  if (address === undefined) return undefined;
  if (typeof address !== "string" || !isAddress(address))
    throw unreadable(
      `its ${IGNITION_FUTURE_ID} is ${safeText(JSON.stringify(address) ?? "", 80)}, not an address`,
    );
  return address;
}

/**
 * The scoring contract's deployment transaction in a journal (sent, possibly
 * not yet confirmed).
 */
export async function deploymentTransaction(
  dir: string,
): Promise<TransactionInfo | undefined> {
  if (!existsSync(path.join(dir, "journal.jsonl"))) return undefined;
  const transactions = await listTransactions(dir, PACKAGED_ARTIFACTS_ONLY);
  return transactions.find(
    (t) => t.type === "DEPLOYMENT_EXECUTION_STATE" && t.name === "VipScore",
  );
}
