import { existsSync } from "node:fs";
import { copyFile, readFile } from "node:fs/promises";
import path from "node:path";

import { assertHardhatInvariant } from "@nomicfoundation/hardhat-errors";
import { z } from "zod";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { ERRORS } from "../error-catalog.js";
import { reasonOf, VipError } from "../errors.js";
import { writeJsonFileAtomically } from "../files/json.js";

/**
 * Which VipScore each chain's tasks use once `stage:correct` replaced one:
 * `<ignition>/vip-contracts.json`, beside the deployments. Without it (or
 * for a chain it does not name), the default deployment `chain-<id>` is the
 * contract, as before any correction.
 */
const contractsRecord = z.object({
  chains: z.record(
    z.object({
      current: z.object({
        deploymentId: z.string(),
        address: z.string(),
        fromStage: z.string(),
        at: z.string(),
      }),
      superseded: z.array(
        z.object({
          address: z.string(),
          by: z.string(),
          fromStage: z.string(),
          at: z.string(),
        }),
      ),
    }),
  ),
});

type ContractsRecord = z.infer<typeof contractsRecord>;

/** What replaced a contract: the new one's address, from which stage, when. */
export interface Supersession {
  by: string;
  fromStage: bigint;
  at: string;
}

export function contractsFile(ignitionPath: string): string {
  return path.join(ignitionPath, "vip-contracts.json");
}

async function readRecord(ignitionPath: string): Promise<ContractsRecord> {
  let text: string;
  try {
    text = await readFile(contractsFile(ignitionPath), "utf8");
  } catch {
    return { chains: {} };
  }
  try {
    return contractsRecord.parse(JSON.parse(text));
  } catch (error) {
    throw new VipError(
      ERRORS.CONTRACT.DEPLOYMENT.CONTRACTS_RECORD_INVALID,
      {
        file: contractsFile(ignitionPath),
        reason: reasonOf(error, "with code"),
      },
      error,
    );
  }
}

/**
 * The deployment id the chain's tasks use by default: the one a correction
 * made current; undefined before any correction.
 */
export async function currentDeploymentId(
  ignitionPath: string,
  chainId: bigint,
): Promise<string | undefined> {
  return (await readRecord(ignitionPath)).chains[chainId.toString()]?.current
    .deploymentId;
}

/** What replaced `address` on the chain; undefined when nothing did. */
export async function supersession(
  ignitionPath: string,
  chainId: bigint,
  address: string,
): Promise<Supersession | undefined> {
  const chain = (await readRecord(ignitionPath)).chains[chainId.toString()];
  const found = chain?.superseded.find(
    (entry) => entry.address.toLowerCase() === address.toLowerCase(),
  );
  return found === undefined
    ? undefined
    : { by: found.by, fromStage: BigInt(found.fromStage), at: found.at };
}

/**
 * Makes `next` (deployed as `deploymentId`, starting at `fromStage`) the
 * chain's contract, and `previous` superseded by it. Written whole (write,
 * then rename); recording the same succession again changes nothing.
 */
export async function recordSuccession(
  ignitionPath: string,
  chainId: bigint,
  succession: {
    previous: string;
    next: string;
    deploymentId: string;
    fromStage: bigint;
  },
): Promise<void> {
  assertHardhatInvariant(
    succession.previous.toLowerCase() !== succession.next.toLowerCase(),
    "a contract is never replaced by itself",
  );
  const record = await readRecord(ignitionPath);
  const key = chainId.toString();
  const at = new Date().toISOString();
  const chain = record.chains[key] ?? {
    current: {
      deploymentId: succession.deploymentId,
      address: succession.next,
      fromStage: succession.fromStage.toString(),
      at,
    },
    superseded: [],
  };
  if (chain.current.address.toLowerCase() !== succession.next.toLowerCase())
    chain.current = {
      deploymentId: succession.deploymentId,
      address: succession.next,
      fromStage: succession.fromStage.toString(),
      at,
    };
  if (
    !chain.superseded.some(
      (entry) =>
        entry.address.toLowerCase() === succession.previous.toLowerCase(),
    )
  )
    chain.superseded.push({
      address: succession.previous,
      by: succession.next,
      fromStage: succession.fromStage.toString(),
      at,
    });
  record.chains[key] = chain;
  const file = contractsFile(ignitionPath);
  // The record decides which contract every task writes to: the one it
  // replaces is kept beside it.
  if (existsSync(file)) await copyFile(file, `${file}.bak`);
  await writeJsonFileAtomically(file, record);
}

/**
 * Refuses to write to a contract a correction replaced (`stage:correct`): the
 * program reads the new one, and a write to the old one is a mistake.
 */
export async function refuseSuperseded(
  ignitionPath: string,
  chainId: bigint,
  score: VipScore,
): Promise<void> {
  const contract = await score.getAddress();
  const replaced = await supersession(ignitionPath, chainId, contract);
  if (replaced !== undefined)
    throw new VipError(ERRORS.CONTRACT.DEPLOYMENT.SUPERSEDED, {
      contract,
      by: replaced.by,
      fromStage: replaced.fromStage,
      at: replaced.at,
    });
}
