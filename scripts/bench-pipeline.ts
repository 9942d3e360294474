/**
 * Sending benchmark: pushes 100,000 fresh addresses to a local `npx hardhat node` over HTTP, pipelined,
 * then the same addresses to a second contract with a send-and-wait loop (one batch in flight), and prints
 * addresses per second, batches, gas and the ratio. The node mines a block every BENCH_BLOCK_MS (default
 * 500, a rollup's pace) with a BENCH_BLOCK_GAS block gas limit (default 150,000,000); BENCH_ADDRESSES and
 * BENCH_IN_FLIGHT (default 8) set the rest. Run with `npm run bench:pipeline`.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { network } from "hardhat";

import { Journal, journalPath } from "../tasks/journal/journal.js";
import type { Output } from "../tasks/output.js";
import { gasLimits } from "../tasks/scores/batches.js";
import { createProgress } from "../tasks/scores/progress.js";
import { pushScores } from "../tasks/scores/push.js";
import { compareScores, readStageScores } from "../tasks/scores/read-back.js";
import { readScoreFile } from "../tasks/scores/read.js";
import { startHardhatNode } from "../test/helpers/hardhat-node.js";
import { DEPLOYER_KEY } from "../test/helpers/keys.js";
import { VipScore__factory } from "../types/ethers-contracts/index.js";
import { sampleAddresses, sampleScores } from "./gas/scenarios.js";

const ADDRESSES = Number(process.env.BENCH_ADDRESSES ?? 100_000);
const BLOCK_MS = Number(process.env.BENCH_BLOCK_MS ?? 500);
const BLOCK_GAS = BigInt(process.env.BENCH_BLOCK_GAS ?? 150_000_000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 8);

const quiet: Output = { line: (text) => console.error(text), warn: (text) => console.error(`warning: ${text}`) };
const dir = await mkdtemp(path.join(tmpdir(), "vip-bench-pipeline-"));
const node = await startHardhatNode();
try {
  await fetchRpc(node.url, "evm_setBlockGasLimit", [`0x${BLOCK_GAS.toString(16)}`]);
  await fetchRpc(node.url, "evm_setAutomine", [false]);
  await fetchRpc(node.url, "evm_setIntervalMining", [BLOCK_MS]);
  process.env.JSON_RPC_URL = node.url;
  process.env.PRIVATE_KEY = DEPLOYER_KEY; // Hardhat's public test key, on a throwaway local node
  const connection = await network.create("rollup");
  const signer = (await connection.ethers.getSigners())[0]!;
  const provider = connection.ethers.provider;

  const file = path.join(dir, "scores.csv");
  const rows = [];
  for (let from = 0; from < ADDRESSES; from += 10_000) {
    const n = Math.min(10_000, ADDRESSES - from);
    const addresses = sampleAddresses(n, "pipeline", from);
    const scores = sampleScores(n, "pipeline", from);
    for (let i = 0; i < n; i++) rows.push(`${addresses[i]},${scores[i]}`);
  }
  await writeFile(file, `address,score\n${rows.join("\n")}\n`);
  const scores = await readScoreFile(file);
  const limits = await gasLimits(provider);

  const run = async (label: string, maxInFlight: number) => {
    const score = await new VipScore__factory(signer).deploy(1n);
    await score.waitForDeployment();
    const journal = await Journal.open(journalPath(path.join(dir, label), node.chainId, await score.getAddress(), 1n));
    await journal.append({ type: "start", chainId: String(node.chainId), contract: await score.getAddress(), stage: "1", signer: signer.address, file, sha256: scores.sha256, entries: scores.table.length, startBlock: await provider.getBlockNumber(), at: new Date().toISOString() });
    const progress = createProgress(scores.table.length, quiet, false);
    const started = performance.now();
    const report = await pushScores({ score, signer, provider, table: scores.table, journal, out: quiet, progress }, { stage: 1n, limits, maxInFlight });
    const seconds = (performance.now() - started) / 1000;
    progress.stop();
    const differences = compareScores(scores.table, await readStageScores(score, 1n));
    if (differences.length > 0) throw new Error(`${label}: ${differences.length} scores differ after the push`);
    return { label, maxInFlight, seconds, ...report };
  };

  const pipelined = await run("pipelined", IN_FLIGHT);
  const sendAndWait = await run("send-and-wait", 1);

  console.log(`\n${ADDRESSES.toLocaleString("en-US")} fresh addresses to a hardhat node over HTTP (block every ${BLOCK_MS} ms, block gas limit ${BLOCK_GAS.toLocaleString("en-US")}, ${limits.budget.toLocaleString("en-US")} gas per batch budget); every score read back and equal\n`);
  console.log(["mode", "in flight", "batches", "total gas", "seconds", "addresses/s"].map((h, i) => (i === 0 ? h.padEnd(16) : h.padStart(16))).join(""));
  for (const r of [pipelined, sendAndWait]) {
    console.log(
      [r.label.padEnd(16), String(r.maxInFlight).padStart(16), String(r.batches).padStart(16), r.gasUsed.toLocaleString("en-US").padStart(16), r.seconds.toFixed(1).padStart(16), Math.round(r.addresses / r.seconds).toLocaleString("en-US").padStart(16)].join(""),
    );
  }
  console.log(`\npipelined / send-and-wait: ${(sendAndWait.seconds / pipelined.seconds).toFixed(2)}x the throughput`);
} finally {
  await node.close();
  await rm(dir, { recursive: true, force: true });
}

async function fetchRpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const answer = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return ((await answer.json()) as { result: unknown }).result;
}
