/**
 * Indexing and scoring benchmark, as operators run the commands: one local
 * `npx hardhat node` holding BENCH_LOGS (1,000,000) `Trade` logs from
 * BENCH_TRADERS (100,000) addresses, BENCH_LOGS_PER_TX (1,000) a transaction,
 * each transaction's block followed by BENCH_EMPTY_BLOCKS (9) empty ones; all
 * in one stage's window on the stand-in base chain. BENCH_RUNS (3) runs of:
 * - `npx hardhat scores:index` in its own process into a fresh vip-data/
 *   (Hardhat's start-up included), straight to the node;
 * - a plain client right after, in a process of its own (see
 *   `bench/plain-client.ts`): the same `eth_getLogs` requests (the index's
 *   own range sizing, `RangeSizes`, applied to the answers; the count is
 *   checked against the ranges the command reports), one after the other,
 *   each answer read and parsed, nothing else; for both, how busy the node
 *   was (its CPU time over the wall time);
 * - the node's pace: the same ranges two at a time (as the command asks
 *   them) by a client that only parses, and how busy the machine's cores
 *   were during the command (its CPU and the node's);
 * - `npx hardhat scores:compute` for the stage on that index, in its own
 *   process, with its peak memory (maxRSS, read in the process at exit);
 * - `npx hardhat scores:explain` for one address of the stage, likewise;
 * - after the last run, the live stage computed again once 1% more logs
 *   have come (its digest goes on from the state the first computation
 *   kept), and on a copy of that index without digest states (every row
 *   hashed): byte for byte the same score file and manifest.
 * Each command's memory: the most its processes held at once, and each
 * process's largest JS heap and memory outside it. Prints each run's
 * figures, then the median and the worst. Run with `npm run bench:index`.
 */
import { spawn } from "node:child_process";
import {
  cp,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";

import { JsonRpcProvider, NonceManager, Wallet } from "ethers";

import { summarizeProfile } from "./bench/cpu-profile.js";
import type { PlainJob, PlainRun } from "./bench/plain-client.js";
import { peakRss, RSS_REPORTER } from "./bench/rss.js";
import { median } from "./bench/stats.js";
import { watchTreeRss } from "./bench/tree-rss.js";
import { startL1RestStandIn } from "../tasks/stand-ins/l1-rest.js";
import { HARDHAT_CLI, PROJECT_ROOT } from "../test/helpers/hardhat-cli.js";
import { startHardhatNode } from "../test/helpers/hardhat-node.js";
import { changeIndex } from "../test/helpers/index-query.js";
import { DEPLOYER_KEY } from "../test/helpers/keys.js";
import {
  type TradeLog,
  TradeLog__factory,
} from "../types/ethers-contracts/index.js";

const LOGS = Number(process.env.BENCH_LOGS ?? 1_000_000);
const TRADERS = Number(process.env.BENCH_TRADERS ?? 100_000);
const PER_TX = Number(process.env.BENCH_LOGS_PER_TX ?? 1_000);
const EMPTY_BLOCKS = Number(process.env.BENCH_EMPTY_BLOCKS ?? 9);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/**
 * BENCH_SPREAD=1: traders spread over the address space as real ones are
 * (`keccak256(i)`'s low 20 bytes) rather than consecutive from 0x1000…:
 * what depends on how addresses spread (the packed answer's groups, the
 * engine's hash tables) is measured as it runs on a real rollup.
 */
const SPREAD = process.env.BENCH_SPREAD === "1";

const PLAIN_CLIENT = path.join(import.meta.dirname, "bench", "plain-client.ts");
const dir = await mkdtemp(path.join(tmpdir(), "vip-bench-index-"));
const node = await startHardhatNode();
const provider = new JsonRpcProvider(node.url, undefined, {
  staticNetwork: true,
});
const wallet = new NonceManager(new Wallet(DEPLOYER_KEY, provider));
const baseChain = await startL1RestStandIn({
  stage: 1n,
  stageStartTime: 0n,
  stageEndTime: 4_000_000_000n,
  stageInterval: 4_000_000_000n,
  now: 2_000_000_000n,
});

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });

/**
 * Each process's own peak and JS heap, as a command's processes reported
 * them at exit (one that did not, a killed worker, from /proc).
 */
function eachProcess(
  run: Pick<
    Awaited<ReturnType<typeof hardhat>>,
    "processMaxRssMb" | "maxRssMb" | "processHeapMb" | "unreportedProcesses"
  >,
): string {
  const unreported =
    run.unreportedProcesses === 0
      ? ""
      : ` (the last ${run.unreportedProcesses} read from /proc: no report at exit, as from a worker the command killed)`;
  return (
    `each process's own peak: ${run.processMaxRssMb.map((mb) => fmt(mb)).join(" + ")} = ` +
    `${fmt(run.maxRssMb)} MB, the command and the policy's engine${unreported}; JS heaps up to ` +
    `${run.processHeapMb.map((mb) => fmt(mb)).join(" + ")} MB`
  );
}

/** Runs the Hardhat CLI as an operator would; its peak memory comes back too. */
async function hardhat(
  args: string[],
  nodeOptions: string[] = [],
): Promise<{
  seconds: number;
  /** The most the command's processes held at once (sampled). */
  peakMb: number;
  /** The processes' peaks added: an upper bound of `peakMb`. */
  maxRssMb: number;
  processMaxRssMb: number[];
  /** The last processes of `processMaxRssMb`, which did not report: their peaks from /proc. */
  unreportedProcesses: number;
  /** Each process's largest JS heap and memory outside it (sampled), MB. */
  processHeapMb: number[];
  processOutsideMb: number[];
  cpuSeconds: number;
  /** What sampling the processes' memory took of the cores meanwhile. */
  watcherCpuSeconds: number;
  output: string;
}> {
  const rssFile = path.join(dir, `rss-${Date.now()}.txt`);
  const started = performance.now();
  const child = spawn(process.execPath, [HARDHAT_CLI, ...args], {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      JSON_RPC_URL: node.url,
      L1_REST_URL: baseChain.url,
      BENCH_RSS_FILE: rssFile,
      NODE_OPTIONS: `${process.env.BENCH_NODE_OPTIONS ?? ""} ${nodeOptions.join(" ")} --import ${RSS_REPORTER}`,
    },
  });
  const memory = watchTreeRss(child.pid ?? 0);
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) =>
    child.on("exit", resolve),
  );
  const seconds = (performance.now() - started) / 1000;
  const peakMb = memory.stop();
  const watcherCpuSeconds = memory.cpuSeconds();
  if (code !== 0)
    throw new Error(`hardhat ${args.join(" ")} exited ${code}:\n${output}`);
  // A line per process of the command (the policy's engine runs in a child
  // of its own): the processes run at once, so their peaks are added, an
  // upper bound of the command's peak. A process that wrote none (a worker
  // the command SIGKILLed once done, as it does its engine's) has the
  // sampler's figure instead.
  const processes = await peakRss(rssFile);
  const reported = new Set(processes.each.map((p) => p.pid));
  const unreportedMb = [...memory.processPeaksMb()]
    .filter(([pid]) => !reported.has(pid))
    .map(([, mb]) => mb);
  return {
    seconds,
    peakMb,
    maxRssMb: processes.all + unreportedMb.reduce((sum, mb) => sum + mb, 0),
    processMaxRssMb: processes.each.map((p) => p.mb).concat(unreportedMb),
    unreportedProcesses: unreportedMb.length,
    processHeapMb: processes.each.map((p) => p.heapMb),
    processOutsideMb: processes.each.map((p) => p.outsideMb),
    cpuSeconds: processes.cpuSeconds,
    watcherCpuSeconds,
    output,
  };
}

function indexArgs(policy: string, data: string): string[] {
  return [
    "scores:index",
    "--network",
    "rollup",
    "--policy",
    policy,
    "--data-dir",
    data,
  ];
}

/**
 * One more `scores:index` into a fresh folder under V8's sampling profiler
 * (not counted in the figures: the profiler slows it), summed by where each
 * sample's own time went.
 */
async function profileIndex(policy: string): Promise<void> {
  const profiles = path.join(dir, "profile");
  const data = path.join(dir, "data-profile");
  const run = await hardhat(indexArgs(policy, data), [
    "--cpu-prof",
    `--cpu-prof-dir=${profiles}`,
  ]);
  const files = await readdir(profiles);
  const sizes = await Promise.all(
    files.map(async (f) => (await stat(path.join(profiles, f))).size),
  );
  const largest = files[sizes.indexOf(Math.max(...sizes))] ?? "";
  console.log(
    `\nscores:index under the profiler (${fmt(run.seconds, 2)} s): where its own time went`,
  );
  for (const line of await summarizeProfile(path.join(profiles, largest)))
    console.log(
      `  ${fmt(line.seconds, 2).padStart(6)} s ${fmt(100 * line.share, 1).padStart(5)} %  ${line.where}`,
    );
  await rm(data, { recursive: true, force: true });
}

/**
 * `count` more Trade logs, PER_TX a transaction, each transaction's block
 * followed by EMPTY_BLOCKS empty ones; traders in turn from the first
 * (consecutive, or spread: see SPREAD).
 */
async function addTrades(tradeLog: TradeLog, count: number): Promise<void> {
  const first = 0x1000000000000000000000000000000000000000n;
  for (let sent = 0; sent < count; sent += PER_TX) {
    const logs = Math.min(PER_TX, count - sent);
    const gas = { gasLimit: 5_000 * logs + 100_000 };
    const tx = SPREAD
      ? await tradeLog.burstSpread(
          sent % TRADERS,
          TRADERS,
          logs,
          10n ** 18n,
          gas,
        )
      : await tradeLog.burst(
          first + BigInt(sent % TRADERS),
          TRADERS,
          logs,
          10n ** 18n,
          gas,
        );
    if (EMPTY_BLOCKS > 0)
      await provider.send("hardhat_mine", [`0x${EMPTY_BLOCKS.toString(16)}`]);
    if (sent + PER_TX >= count) await tx.wait();
  }
}

/** The plain client in a process of its own (see `bench/plain-client.ts`). */
async function plainClient(job: PlainJob): Promise<PlainRun> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", PLAIN_CLIENT, JSON.stringify(job)],
    { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) =>
    child.on("exit", resolve),
  );
  if (code !== 0) throw new Error(`the plain client exited ${code}`);
  return JSON.parse(output) as PlainRun;
}

function computeArgs(out: string, data: string): string[] {
  return [
    "scores:compute",
    "--network",
    "rollup",
    "--policy",
    path.join(dir, "perp.sql"),
    "--stage",
    "1",
    "--out",
    out,
    "--data-dir",
    data,
  ];
}

/**
 * After the last run: the live stage computed again once 1% more logs have
 * come, as the autopilot does each pass (its digest goes on from the state
 * the first computation kept, so it pays the new rows), then on a copy of
 * that index without its digest states (every row hashed): the score files
 * and manifests must be byte for byte the same.
 */
async function liveRecompute(tradeLog: TradeLog, data: string): Promise<void> {
  const more = Math.max(PER_TX, Math.floor(LOGS / 100));
  await addTrades(tradeLog, more);
  const live = await hardhat(computeArgs(path.join(dir, "out-live"), data));
  const copy = `${data}-every-row`;
  await cp(data, copy, { recursive: true });
  const file = path.join(
    copy,
    (await readdir(copy)).find((f) => f.endsWith(".duckdb")) ?? "",
  );
  await changeIndex(file, "drop table digest_states");
  const everyRow = await hardhat(
    computeArgs(path.join(dir, "out-every-row"), copy),
  );
  for (const name of ["stage-1.csv", "stage-1.manifest.json"]) {
    const [fromState, fromFirstRow] = await Promise.all([
      readFile(path.join(dir, "out-live", name)),
      readFile(path.join(dir, "out-every-row", name)),
    ]);
    if (!fromState.equals(fromFirstRow))
      throw new Error(
        `${name} differs when every row is hashed:\n${live.output}\n${everyRow.output}`,
      );
  }
  console.log(
    `\nthe live stage again after ${fmt(more)} more logs: scores:compute ${fmt(live.seconds, 2)} s ` +
      `(its digest from the state the last run kept), peak ${fmt(live.peakMb)} MB at once ` +
      `(${eachProcess(live)}); on the same index without digest states (every row hashed) ` +
      `${fmt(everyRow.seconds, 2)} s, peak ${fmt(everyRow.peakMb)} MB (${eachProcess(everyRow)}); ` +
      `score file and manifest byte-identical`,
  );
  await rm(copy, { recursive: true, force: true });
}

try {
  console.log(
    `bench:index: ${fmt(LOGS)} logs from ${fmt(TRADERS)} ${SPREAD ? "spread" : "consecutive"} addresses, ` +
      `${fmt(PER_TX)} a transaction, ${EMPTY_BLOCKS} empty blocks after each; ${RUNS} runs`,
  );
  await provider.send("evm_setBlockGasLimit", [
    `0x${(500_000_000).toString(16)}`,
  ]);
  const tradeLog = await new TradeLog__factory(wallet).deploy();
  await tradeLog.waitForDeployment();
  const address = (await tradeLog.getAddress()).toLowerCase();
  const topic = tradeLog.interface.getEvent("Trade").topicHash;
  const made = performance.now();
  await addTrades(tradeLog, LOGS);
  // Asked of the node itself: ethers caches getBlockNumber for a moment.
  const head = Number(await provider.send("eth_blockNumber", []));
  console.log(
    `made ${fmt(LOGS)} logs in ${fmt(head)} blocks in ${fmt((performance.now() - made) / 1000, 1)} s`,
  );
  const policy = path.join(dir, "perp.sql");
  await writeFile(
    policy,
    `-- @policy perp-volume
-- @from-stage 1
-- @source trades ${address} event Trade(address indexed trader, uint256 notional, uint16 leverage)
select trader as address, sum(notional * 20 * (leverage + 4)) // (5 * 1000000000000000000) as score
from trades, stage
where block_time >= stage.start_time and block_time < stage.end_time
group by trader
`,
  );

  const rows: {
    index: number;
    plain: number;
    ratio: number;
    /** scores:index with nothing to fetch, and the ratio without it. */
    fixed: number;
    ratioAfterStart: number;
    /** The same ranges two at a time by a client that only parses; the machine's cores busy during scores:index. */
    pace: number;
    machineBusy: number;
    compute: number;
    /** scores:compute's processes at once (sampled), and their peaks added. */
    peak: number;
    rss: number;
    indexPeak: number;
    /** scores:explain's time and its processes' peak at once. */
    explain: number;
    explainPeak: number;
  }[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const data = path.join(dir, `data-${run}`);
    const indexNodeCpu = node.cpuSeconds();
    const index = await hardhat(indexArgs(policy, data));
    const indexNodeBusy = (node.cpuSeconds() - indexNodeCpu) / index.seconds;
    const ranges = Number(/in (\d+) range\(s\)/.exec(index.output)?.[1]);
    const indexName = (await readdir(data)).find((f) => f.endsWith(".duckdb"));
    const indexMb =
      indexName === undefined
        ? 0
        : (await stat(path.join(data, indexName))).size / 1e6;
    // Again on the index it just made: nothing to fetch, so what is left is
    // the command's fixed cost (Hardhat's start-up, opening the index, the
    // reorganization check), which the plain client does not pay.
    const idle = await hardhat(indexArgs(policy, data));
    const plainNodeCpu = node.cpuSeconds();
    const rollup = { url: node.url, address, topic };
    const plainRun = await plainClient({ ...rollup, kind: "plain", head });
    const plain = plainRun.seconds;
    const plainLogs = plainRun.logs;
    const requests = plainRun.ranges.length;
    const plainNodeBusy = (node.cpuSeconds() - plainNodeCpu) / plain;
    // The node's own pace: the same ranges two at a time, as the command
    // asks them, by a client that only parses (the command's ceiling).
    const paceRun = await plainClient({
      ...rollup,
      kind: "two-at-a-time",
      ranges: plainRun.ranges,
    });
    const pace = paceRun.seconds;
    if (paceRun.logs !== LOGS)
      throw new Error(`two at a time, the node gave ${paceRun.logs} logs`);
    // Both processes' CPU over the command's time, of the machine's cores.
    const machineBusy =
      (index.cpuSeconds + indexNodeBusy * index.seconds) /
      (index.seconds * availableParallelism());
    if (plainLogs !== LOGS || requests !== ranges)
      throw new Error(
        `the plain client got ${plainLogs} logs in ${requests} requests up to block ${head}; ` +
          `the command stored ${LOGS} in ${ranges} ranges: ${index.output
            .split("\n")
            .filter((l) => l.startsWith("indexed"))
            .join("")}`,
      );
    const compute = await hardhat(
      computeArgs(path.join(dir, `out-${run}`), data),
    );
    const csv = await readFile(
      path.join(dir, `out-${run}`, "stage-1.csv"),
      "utf8",
    );
    const addresses = csv.trim().split("\n").length - 1;
    if (addresses !== Math.min(TRADERS, LOGS))
      throw new Error(`scores:compute wrote ${addresses} addresses`);
    // A user's question at this size: one address, from the middle of the file.
    const asked = csv.split("\n")[1 + Math.floor(addresses / 2)]?.split(",")[0];
    const explain = await hardhat([
      "scores:explain",
      "--network",
      "rollup",
      "--policy",
      policy,
      "--stage",
      "1",
      "--address",
      String(asked),
      "--data-dir",
      data,
    ]);
    if (!/^score\s+\d/m.test(explain.output))
      throw new Error(`scores:explain said: ${explain.output.slice(-400)}`);
    const row = {
      explain: explain.seconds,
      explainPeak: explain.peakMb,
      index: LOGS / index.seconds,
      plain: LOGS / plain,
      ratio: plain / index.seconds,
      fixed: idle.seconds,
      ratioAfterStart: plain / (index.seconds - idle.seconds),
      pace,
      machineBusy,
      compute: compute.seconds,
      peak: compute.peakMb,
      rss: compute.maxRssMb,
      indexPeak: index.peakMb,
    };
    rows.push(row);
    console.log(
      `run ${run}: scores:index ${fmt(index.seconds, 2)} s (${fmt(row.index)} logs/s, ` +
        `${requests} eth_getLogs, CPU ${fmt(index.cpuSeconds, 2)} s, index file ${fmt(indexMb)} MB, ` +
        `peak ${fmt(index.peakMb)} MB (sampling it took ${fmt(index.watcherCpuSeconds, 2)} s of CPU): ` +
        `JS heap up to ${index.processHeapMb.map((mb) => fmt(mb)).join(" + ")} MB, ` +
        `outside it up to ${index.processOutsideMb.map((mb) => fmt(mb)).join(" + ")} MB); ` +
        `plain client ${fmt(plain, 2)} s (${fmt(row.plain)} logs/s); ratio ${fmt(row.ratio, 2)}; ` +
        `the node busy ${fmt(100 * indexNodeBusy)} % of scores:index's time, ${fmt(100 * plainNodeBusy)} % of the plain client's; ` +
        `scores:index with nothing to fetch ${fmt(idle.seconds, 2)} s, ratio without it ${fmt(row.ratioAfterStart, 2)}; ` +
        `the same ranges two at a time, parsed alone, ${fmt(pace, 2)} s (the node's pace); ` +
        `the machine's cores busy during scores:index ${fmt(100 * machineBusy)} % (the command's CPU and the node's); ` +
        `scores:compute ${fmt(compute.seconds, 2)} s (CPU ${fmt(compute.cpuSeconds, 2)} s), ` +
        `peak ${fmt(compute.peakMb)} MB at once (${eachProcess(compute)}), ${fmt(addresses)} addresses; ` +
        `scores:explain ${fmt(explain.seconds, 2)} s, peak ${fmt(explain.peakMb)} MB at once`,
    );
    if (run === RUNS) await liveRecompute(tradeLog, data);
    await rm(data, { recursive: true, force: true });
  }
  const ratios = rows.map((r) => r.ratio);
  const computes = rows.map((r) => r.compute);
  const peaks = rows.map((r) => r.peak);
  const rss = rows.map((r) => r.rss);
  console.log(
    `\nscores:index / plain client throughput: median ${fmt(median(ratios), 2)}, ` +
      `lowest ${fmt(Math.min(...ratios), 2)}; without the command's fixed cost (median ` +
      `${fmt(median(rows.map((r) => r.fixed)), 2)} s): median ` +
      `${fmt(median(rows.map((r) => r.ratioAfterStart)), 2)}, lowest ` +
      `${fmt(Math.min(...rows.map((r) => r.ratioAfterStart)), 2)}; the node's pace (the same ranges ` +
      `two at a time, parsed alone): median ${fmt(median(rows.map((r) => r.pace)), 2)} s; the cores busy ` +
      `during scores:index: median ${fmt(100 * median(rows.map((r) => r.machineBusy)))} %`,
  );
  if (process.env.BENCH_PROFILE === "1") await profileIndex(policy);
  console.log(
    `scores:index: median ${fmt(median(rows.map((r) => r.index)))} logs/s, ` +
      `peak memory median ${fmt(median(rows.map((r) => r.indexPeak)))} MB; ` +
      `plain client median ${fmt(median(rows.map((r) => r.plain)))} logs/s`,
  );
  console.log(
    `scores:compute (${fmt(LOGS)} logs, ${fmt(TRADERS)} addresses, Hardhat's start-up included): ` +
      `median ${fmt(median(computes), 2)} s, worst ${fmt(Math.max(...computes), 2)} s; ` +
      `peak memory at once median ${fmt(median(peaks))} MB, worst ${fmt(Math.max(...peaks))} MB ` +
      `(each process's own peak added: median ${fmt(median(rss))} MB, worst ${fmt(Math.max(...rss))} MB)`,
  );
  const explains = rows.map((r) => r.explain);
  const explainPeaks = rows.map((r) => r.explainPeak);
  console.log(
    `scores:explain (one address of the same stage, Hardhat's start-up included): ` +
      `median ${fmt(median(explains), 2)} s, worst ${fmt(Math.max(...explains), 2)} s; ` +
      `peak memory at once median ${fmt(median(explainPeaks))} MB, worst ${fmt(Math.max(...explainPeaks))} MB`,
  );
  console.log(
    "goals: scores:index >= 0.95 of the plain client (lowest >= 0.85); " +
      "10,000,000 logs and 1,000,000 addresses: scores:compute <= 12 s; " +
      "peaks at 10x: scores:index <= 1.2x, scores:compute <= 1.5x its 1,000,000-log peak",
  );
} finally {
  await baseChain.close();
  await node.close();
  await rm(dir, { recursive: true, force: true });
}
