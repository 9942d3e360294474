import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";

import {
  listTransactions,
  type TransactionInfo,
} from "@nomicfoundation/ignition-core";

import { IGNITION_FUTURE_ID } from "../config/constants.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";

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
  const addresses = JSON.parse(await readFile(file, "utf8")) as Record<
    string,
    string
  >;
  return addresses[IGNITION_FUTURE_ID];
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
