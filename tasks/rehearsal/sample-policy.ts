import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

import type { Signer } from "ethers";

import {
  type TradeLog,
  TradeLog__factory,
  type VipScore,
} from "../../types/ethers-contracts/index.js";
import { packageFile } from "../config/package-files.js";
import type { Connection } from "../network/connect.js";
import type { Output } from "../output.js";
import type { L1RestState } from "../stand-ins/l1-rest.js";

/** The sample venue of the rehearsal: its contract and the policy that scores it. */
export interface SamplePolicy {
  tradeLog: TradeLog;
  address: string;
  /** The sample policy, its source pointed at `address`. */
  policyPath: string;
}

/** What the two rehearsal steps that score from the sample policy act on. */
export interface PolicyRehearsal {
  connection: Connection;
  score: VipScore;
  signer: Signer;
  sample: SamplePolicy;
  baseChain: { url: string; state: L1RestState; moduleAddress: string };
  journalDir: string;
  /** Where the scoring steps write their score files, for the report. */
  scoresDir: string;
  /** Where each scoring step keeps its activity index, a folder each. */
  indexDir: string;
  out: Output;
}

/**
 * Deploys the sample venue (contracts/test/TradeLog.sol) and writes the sample
 * policy (scripts/sample-policy/perp-volume.sql) into `dir` with the venue's
 * address on its @source line.
 */
export async function deploySamplePolicy(
  signer: Signer,
  dir: string,
): Promise<SamplePolicy> {
  const tradeLog = await new TradeLog__factory(signer).deploy();
  await tradeLog.waitForDeployment();
  const address = await tradeLog.getAddress();
  const sample = await readFile(
    await packageFile("scripts", "sample-policy", "perp-volume.sql"),
    "utf8",
  );
  const policyPath = path.join(dir, "perp-volume.sql");
  await writeFile(
    policyPath,
    sample.replace(/(-- @source trades )0x[0-9a-fA-F]{40}/, `$1${address}`),
  );
  return { tradeLog, address, policyPath };
}

/**
 * One block of trades on the in-process chain, at `time` (unix seconds) or,
 * without one, at the chain's next block time.
 */
export async function trade(
  connection: Connection,
  { tradeLog }: SamplePolicy,
  entries: [string, bigint, number][],
  time?: bigint,
): Promise<void> {
  if (time !== undefined)
    await connection.provider.request({
      method: "evm_setNextBlockTimestamp",
      params: [Number(time)],
    });
  await (
    await tradeLog.trade(
      entries.map((e) => e[0]),
      entries.map((e) => e[1]),
      entries.map((e) => e[2]),
    )
  ).wait();
}
