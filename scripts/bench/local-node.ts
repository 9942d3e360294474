import { writeFile } from "node:fs/promises";

import { rpc } from "./rpc.js";
import { RSS_REPORTER } from "./rss.js";
import { DEPLOYER_KEY } from "../../test/helpers/keys.js";
import { sampleAddresses, sampleScores } from "../gas/scenarios.js";

/**
 * The node mines as a rollup does: a block every `blockMs` with `blockGas`
 * gas, not one per transaction.
 */
export async function mineEvery(
  url: string,
  { blockMs, blockGas }: { blockMs: number; blockGas: bigint },
): Promise<void> {
  await rpc(url, "evm_setBlockGasLimit", [`0x${blockGas.toString(16)}`]);
  await rpc(url, "evm_setAutomine", [false]);
  await rpc(url, "evm_setIntervalMining", [blockMs]);
}

/** A score file of `count` deterministic fresh addresses, drawn under `label`. */
export async function writeSampleScoreFile(
  file: string,
  count: number,
  label: string,
): Promise<void> {
  const rows: string[] = [];
  for (let from = 0; from < count; from += 10_000) {
    const n = Math.min(10_000, count - from);
    const addresses = sampleAddresses(n, label, from);
    const scores = sampleScores(n, label, from);
    for (let i = 0; i < n; i++) rows.push(`${addresses[i]},${scores[i]}`);
  }
  await writeFile(file, `address,score\n${rows.join("\n")}\n`);
}

/**
 * The environment `hardhat scores:update` runs in, as an operator's: the
 * node's URL, its signer's key (Hardhat's public test key, on a throwaway
 * local node), and each process's peak memory appended to `rssFile`.
 */
export function scoresUpdateEnv(
  nodeUrl: string,
  rssFile: string,
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    JSON_RPC_URL: nodeUrl,
    PRIVATE_KEY: DEPLOYER_KEY,
    BENCH_RSS_FILE: rssFile,
    NODE_OPTIONS: `--import ${RSS_REPORTER}`,
  };
}
