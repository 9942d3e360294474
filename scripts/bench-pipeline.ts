/**
 * Sending benchmark, as operators run the command: BENCH_RUNS (5) pairs on one
 * local `npx hardhat node` over HTTP, each pushing BENCH_ADDRESSES (100,000)
 * fresh addresses twice, each time to a new contract:
 * - a perfect client: every batch pre-signed with a fixed gas limit and an
 *   explicit nonce before the clock starts, all sent raw at once (one JSON-RPC
 *   batch), one wait for the last receipt; what the node can take;
 * - `npx hardhat scores:update` in its own process (Hardhat's start-up,
 *   pre-flight, journal, the push, its proof by the push's events, or the
 *   read-back of every score with BENCH_READ_BACK=full), with its adaptive
 *   in-flight window (BENCH_IN_FLIGHT to fix one).
 * For each pair: chain-side throughput (the gas of the blocks holding the push
 * over the time those blocks took to appear, timed from the node's own "Mined
 * block" lines, so measuring adds no requests) as a ratio to the perfect
 * client's, the whole command's time over the perfect client's push, the
 * whole command's time over the perfect client's chain time (from the first
 * to the last block holding its push), and the command's peak memory (each
 * process's maxRSS, reported at its exit by scripts/bench/report-rss.mjs);
 * then the median and the worst. The node mines a block every BENCH_BLOCK_MS (500,
 * a rollup's pace) with a BENCH_BLOCK_GAS block gas limit (150,000,000). Run
 * with `npm run bench:pipeline`.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { JsonRpcProvider, Wallet } from "ethers";
import { network } from "hardhat";

import {
  mineEvery,
  scoresUpdateEnv,
  writeSampleScoreFile,
} from "./bench/local-node.js";
import { rpc as rpcTo } from "./bench/rpc.js";
import { peakRss } from "./bench/rss.js";
import { defined } from "../tasks/errors.js";
import { median } from "./bench/stats.js";
import { gasLimits } from "../tasks/scores/batches.js";
import { readScoreFile } from "../tasks/scores/read.js";
import { startHardhatNode } from "../test/helpers/hardhat-node.js";
import { DEPLOYER_KEY } from "../test/helpers/keys.js";
import {
  type VipScore,
  VipScore__factory,
} from "../types/ethers-contracts/index.js";

const ADDRESSES = Number(process.env.BENCH_ADDRESSES ?? 100_000);
const BLOCK_MS = Number(process.env.BENCH_BLOCK_MS ?? 500);
const BLOCK_GAS = BigInt(process.env.BENCH_BLOCK_GAS ?? 150_000_000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 0);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** `full`: the command reads every score back (`--full-read-back`). */
const READ_BACK = process.env.BENCH_READ_BACK ?? "";

const dir = await mkdtemp(path.join(tmpdir(), "vip-bench-pipeline-"));

// When each block appeared, from the node's log: no polling, so the measurement
// costs the node nothing.
const minedAt = new Map<number, number>();
let partial = "";
const node = await startHardhatNode({
  onOutput: (text) => {
    const now = performance.now();
    const lines = (partial + text).split("\n");
    partial = defined(lines.pop(), "lines.pop()");
    for (const line of lines) {
      const single = /Mined (?:empty )?block #(\d+)/.exec(line);
      const range = /Mined empty block range #(\d+) to #(\d+)/.exec(line);
      if (range !== null)
        for (let n = Number(range[1]); n <= Number(range[2]); n++)
          minedAt.set(n, minedAt.get(n) ?? now);
      else if (single !== null) minedAt.set(Number(single[1]), now);
    }
  },
});

interface Row {
  label: string;
  inFlight: string;
  batches: number;
  gas: bigint;
  /**
   * From the first request to the last receipt (perfect client) or the whole
   * command (scores:update).
   */
  seconds: number;
  /**
   * The blocks that hold the push: their gas over the time from the block
   * before the first to the last.
   */
  chainSeconds: number;
  chainBlocks: number;
  /**
   * For the command: from its start to the block before its first (start-up,
   * pre-flight, the first sends), and from its last block to its exit (the
   * read-back and the report).
   */
  before?: number;
  after?: number;
  /** From the command's `sent` line to its exit: the read-back, the report. */
  readBack?: number;
  /**
   * From the first block holding the push to the last, in seconds (the perfect
   * client's chain time).
   */
  firstToLast: number;
  /** The command's largest process's peak RSS, and all its processes' added. */
  peakRssMb?: number;
  allRssMb?: number;
}

try {
  await mineEvery(node.url, { blockMs: BLOCK_MS, blockGas: BLOCK_GAS });
  process.env.JSON_RPC_URL = node.url;
  process.env.PRIVATE_KEY = DEPLOYER_KEY; // Hardhat's public test key, on a throwaway local node
  const connection = await network.create("rollup");
  const signer = defined(
    (await connection.ethers.getSigners())[0],
    "(await connection.ethers.getSigners())[0]",
  );
  const provider = connection.ethers.provider;

  const file = path.join(dir, "scores.csv");
  await writeSampleScoreFile(file, ADDRESSES, "pipeline");
  const scoreFile = await readScoreFile(file);
  const limits = await gasLimits(provider);
  const deploy = async () => {
    const score = await new VipScore__factory(signer).deploy(1n);
    await score.waitForDeployment();
    return score;
  };

  /**
   * The push's blocks: those from `fromBlock` holding transactions to the
   * contract.
   */
  const chainSide = async (score: VipScore, fromBlock: number) => {
    const contract = (await score.getAddress()).toLowerCase();
    const latest = await provider.getBlockNumber();
    let first: number | undefined;
    let last = 0;
    let gas = 0n;
    let batches = 0;
    for (let n = fromBlock + 1; n <= latest; n++) {
      const block = await provider.getBlock(n, true);
      const ours = defined(block, "block").prefetchedTransactions.filter(
        (tx) => tx.to?.toLowerCase() === contract,
      );
      if (ours.length === 0) continue;
      first ??= n;
      last = n;
      batches += ours.length;
      gas += defined(block, "block").gasUsed;
    }
    if (first === undefined) throw new Error("no block holds the push");
    const seconds =
      (defined(minedAt.get(last), "minedAt.get(last)") -
        defined(minedAt.get(first - 1), "minedAt.get(first - 1)")) /
      1000;
    // Block timestamps are whole seconds on hardhat node, too coarse for a
    // 10-second push: the chain time is taken from the wall-clock times at
    // which this process saw the node log the first and the last block
    // mined (ms precision, and no request to the node). A push held by one
    // block has no span between first and last: one block interval then.
    const firstToLast =
      first === last
        ? seconds
        : (defined(minedAt.get(last), "minedAt.get(last)") -
            defined(minedAt.get(first), "minedAt.get(first)")) /
          1000;
    return {
      gas,
      batches,
      chainSeconds: seconds,
      firstToLast,
      chainBlocks: last - first + 1,
      firstAt: defined(minedAt.get(first - 1), "minedAt.get(first - 1)"),
      lastAt: defined(minedAt.get(last), "minedAt.get(last)"),
    };
  };

  const perfect = async (): Promise<Row> => {
    const score = await deploy();
    const wallet = new Wallet(
      DEPLOYER_KEY,
      new JsonRpcProvider(node.url, undefined, {
        staticNetwork: true,
        cacheTimeout: -1,
      }),
    );
    // Batches as large as fit a block's share exactly (found by estimating
    // before the clock starts).
    const estimate = (n: number, from = 0) => {
      const { addresses, scores } = scoreFile.table.slice(from, from + n);
      return score.updateScores.estimateGas(1n, addresses, scores);
    };
    let size = Math.floor(Number(limits.target) / 30_000);
    while ((await estimate(size + 10)) < (limits.target * 995n) / 1000n)
      size += 10;
    while ((await estimate(size)) > (limits.target * 995n) / 1000n) size -= 1;
    const block = defined(
      await provider.getBlock("latest"),
      '(await provider.getBlock("latest"))',
    );
    const nonce = await provider.getTransactionCount(signer.address, "pending");
    const chainId = (await provider.getNetwork()).chainId;
    const signed: string[] = [];
    for (
      let from = 0, i = 0;
      from < scoreFile.table.length;
      from += size, i++
    ) {
      const { addresses, scores } = scoreFile.table.slice(
        from,
        Math.min(from + size, scoreFile.table.length),
      );
      const data = score.interface.encodeFunctionData("updateScores", [
        1n,
        addresses,
        scores,
      ]);
      signed.push(
        await wallet.signTransaction({
          type: 2,
          chainId,
          nonce: nonce + i,
          to: await score.getAddress(),
          data,
          gasLimit: limits.target,
          // Full blocks raise the base fee 12.5% a block: a fee cap far above
          // it keeps every batch includable.
          maxFeePerGas:
            defined(block.baseFeePerGas, "block.baseFeePerGas") * 40n +
            2_000_000_000n,
          maxPriorityFeePerGas: 1_000_000_000n,
        }),
      );
    }
    const fromBlock = await provider.getBlockNumber();
    const started = performance.now();
    const answers = (await rpcBatch(
      signed.map((tx) => ["eth_sendRawTransaction", [tx]]),
    )) as { result?: string; error?: unknown }[];
    const failedSend = answers.find((a) => a.result === undefined);
    if (failedSend !== undefined)
      throw new Error(
        `perfect client: a send failed: ${JSON.stringify(failedSend.error)}`,
      );
    const lastHash = defined(
      defined(answers.at(-1), "answers.at(-1)").result,
      'defined(answers.at(-1), "answers.at(-1)").result',
    );
    while ((await rpc("eth_getTransactionReceipt", [lastHash])) === null)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const seconds = (performance.now() - started) / 1000;
    const chain = await chainSide(score, fromBlock);
    if ((await score.scoreCount(1n)) !== BigInt(ADDRESSES))
      throw new Error("perfect client: not every address was written");
    return {
      label: "perfect client",
      inFlight: "all",
      batches: chain.batches,
      gas: chain.gas,
      seconds,
      chainSeconds: chain.chainSeconds,
      chainBlocks: chain.chainBlocks,
      firstToLast: chain.firstToLast,
    };
  };

  /**
   * `npx hardhat scores:update` in its own process, as an operator runs it:
   * Hardhat's start-up, the config, the action, the push and its proof are
   * all in its time.
   */
  const scoresUpdate = async (run: number): Promise<Row> => {
    const score = await deploy();
    const fromBlock = await provider.getBlockNumber();
    const started = performance.now();
    const args = [
      "hardhat",
      "scores:update",
      "--network",
      "rollup",
      "--stage",
      "1",
      "--file",
      file,
      "--contract",
      await score.getAddress(),
      "--journal-dir",
      path.join(dir, `run-${run}`),
      ...(IN_FLIGHT === 0 ? [] : ["--max-in-flight", String(IN_FLIGHT)]),
      ...(READ_BACK === "full" ? ["--full-read-back"] : []),
      "--no-typechain",
    ];
    const rssFile = path.join(dir, `rss-${run}.jsonl`);
    const child = spawn("npx", args, {
      env: scoresUpdateEnv(node.url, rssFile),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    // When the command printed its `sent` line: the push is over, the read-back
    // starts.
    let sentAt: number | undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (sentAt === undefined && /^sent\s/m.test(output))
        sentAt = performance.now();
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) =>
      child.on("close", resolve),
    );
    const ended = performance.now();
    const seconds = (ended - started) / 1000;
    if (code !== 0)
      throw new Error(`scores:update exited with ${code}:\n${output}`);
    if (!/^verified\s/m.test(output))
      throw new Error(`scores:update did not verify:\n${output}`);
    const chain = await chainSide(score, fromBlock);
    // npx's own process (the child spawned here) is not the command: the
    // peak is that of the processes it started (Hardhat's).
    const rss = await peakRss(rssFile);
    const hardhat = rss.each.filter((p) => p.pid !== child.pid);
    // The command's own account of the push: how far its window grew.
    const sent = /^sent\s+(.*)$/m.exec(output);
    if (sent !== null) console.error(`pair ${run}: ${sent[1]}`);
    console.error(
      `pair ${run}: peak memory of each process: ` +
        rss.each
          .map(
            (p) =>
              `${p.mb.toFixed(0)} MB${p.pid === child.pid ? " (npx)" : ""}`,
          )
          .join(", "),
    );
    return {
      label: `scores:update ${run}`,
      inFlight: IN_FLIGHT === 0 ? "adaptive" : String(IN_FLIGHT),
      batches: chain.batches,
      gas: chain.gas,
      seconds,
      chainSeconds: chain.chainSeconds,
      chainBlocks: chain.chainBlocks,
      before: (chain.firstAt - started) / 1000,
      after: (ended - chain.lastAt) / 1000,
      readBack: (ended - defined(sentAt, "sentAt")) / 1000,
      firstToLast: chain.firstToLast,
      peakRssMb: Math.max(...hardhat.map((p) => p.mb)),
      allRssMb: rss.all,
    };
  };

  const throughput = (r: Row) => Number(r.gas) / r.chainSeconds;
  console.log(
    `\n${ADDRESSES.toLocaleString("en-US")} fresh addresses to a hardhat node over HTTP ` +
      `(block every ${BLOCK_MS} ms, block gas limit ${BLOCK_GAS.toLocaleString("en-US")}: ` +
      `${(Number(BLOCK_GAS) / BLOCK_MS / 1000).toFixed(0)} M gas/s of capacity; ` +
      `${limits.perBlock} batches of ${limits.target.toLocaleString("en-US")} gas per block); ` +
      `${RUNS} pairs, each the perfect client then the command, each to a new contract\n`,
  );
  const header = [
    "pair",
    "perfect M gas/s",
    "perfect s",
    "command M gas/s",
    "command blocks",
    "chain ratio",
    "command s",
    "vs perfect push",
    "before/after/read",
    "vs perfect chain",
    "peak MB",
  ];
  console.log(
    header.map((h, i) => (i === 0 ? h.padEnd(6) : h.padStart(17))).join(""),
  );
  const ratios: number[] = [];
  const wholes: number[] = [];
  const overChain: number[] = [];
  const peaks: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    // Full blocks raise the base fee run after run: by the fifth pair the
    // deployer's 10,000 ETH no longer covered a batch's upfront cost, and the
    // node stopped mining (its miner refuses such a transaction). Topped up
    // before every pair.
    await rpc("hardhat_setBalance", [
      signer.address,
      `0x${(10n ** 30n).toString(16)}`,
    ]);
    const reference = await perfect();
    const command = await scoresUpdate(run);
    const ratio = throughput(command) / throughput(reference);
    const whole = command.seconds / reference.seconds;
    const wholeOverChain = command.seconds / reference.firstToLast;
    ratios.push(ratio);
    wholes.push(whole);
    overChain.push(wholeOverChain);
    peaks.push(command.peakRssMb ?? 0);
    console.log(
      [
        String(run).padEnd(6),
        (throughput(reference) / 1e6).toFixed(1).padStart(17),
        reference.seconds.toFixed(1).padStart(17),
        (throughput(command) / 1e6).toFixed(1).padStart(17),
        String(command.chainBlocks).padStart(17),
        ratio.toFixed(2).padStart(17),
        command.seconds.toFixed(1).padStart(17),
        `${whole.toFixed(2)}x`.padStart(17),
        `${command.before?.toFixed(1)}/${command.after?.toFixed(1)}/${command.readBack?.toFixed(1)}`.padStart(
          19,
        ),
        `${wholeOverChain.toFixed(2)}x`.padStart(17),
        `${command.peakRssMb?.toFixed(0)} (${command.allRssMb?.toFixed(0)})`.padStart(
          17,
        ),
      ].join(""),
    );
  }
  console.log(
    `\nchain-side throughput, command / perfect client: median ${median(ratios).toFixed(2)}, ` +
      `lowest ${Math.min(...ratios).toFixed(2)} (goal: median >= 0.95, lowest >= 0.85)`,
  );
  console.log(
    `whole command / perfect client's push: median ${median(wholes).toFixed(2)}x, ` +
      `worst ${Math.max(...wholes).toFixed(2)}x (goal: <= 1.3x)`,
  );
  console.log(
    `whole command / perfect client's chain time (first to last block): median ` +
      `${median(overChain).toFixed(2)}x, worst ${Math.max(...overChain).toFixed(2)}x ` +
      "(goal: median <= 1.25x, worst <= 1.4x)",
  );
  console.log(
    `command's peak memory (its largest process): median ${median(peaks).toFixed(0)} MB, ` +
      `worst ${Math.max(...peaks).toFixed(0)} MB (goal: <= 1,024 MB)`,
  );
  console.log(
    "The command's seconds are `npx hardhat scores:update` as a process (Hardhat's start-up, " +
      "pre-flight, journal, push, proof); the perfect client's, its push alone. " +
      "Before/after: from the command's start to the block before its first (start-up, pre-flight, " +
      "first sends), and from its last block to its exit, of which the read-back " +
      "(from the `sent` line to the exit): the proof. Peak MB: the Hardhat process's maxRSS (in brackets, " +
      "every process's added, npx's own included).",
  );
} finally {
  await node.close();
  await rm(dir, { recursive: true, force: true });
}

/** A request to the benchmark's node. */
async function rpc(method: string, params: unknown[]): Promise<unknown> {
  return rpcTo(node.url, method, params);
}

async function rpcBatch(calls: [string, unknown[]][]): Promise<unknown[]> {
  const body = JSON.stringify(
    calls.map(([method, params], id) => ({
      jsonrpc: "2.0",
      id,
      method,
      params,
    })),
  );
  const answer = await fetch(node.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return ((await answer.json()) as { id: number }[]).sort(
    (a, b) => a.id - b.id,
  );
}
