/**
 * The report's cost as a stage grows, as users run it: one final stage of
 * 100,000 and of 1,000,000 addresses (BENCH_SIZES), its CSV, manifest and
 * policy written by the project's own writers, then `npx hardhat
 * scores:report --scores-dir … --out …` in its own process (Hardhat's
 * start-up included), BENCH_RUNS (3) runs each into a fresh folder. Prints
 * each run's time, peak memory (maxRSS, read in the process at exit) and
 * the stage page's size, then the median and the worst, and how each grows
 * from the smallest size to the largest against the goals (issue 44: at
 * 1,000,000 addresses peak memory ≤ 1 GB and ≤ 1.5× that at 100,000, time
 * ≤ 10× that at 100,000, the stage page ≤ 1 MB). Run with `npm run
 * bench:report`.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { peakRss, RSS_REPORTER } from "./bench/rss.js";
import { median, worst } from "./bench/stats.js";
import type { ScoreRow } from "../tasks/scoring/compute.js";
import {
  scoreCsv,
  stageManifest,
  writeStageFiles,
} from "../tasks/scoring/publish.js";
import { packRows } from "../tasks/scoring/score-rows.js";
import { HARDHAT_CLI, PROJECT_ROOT } from "../test/helpers/hardhat-cli.js";
import { writePolicy } from "../test/report/fixture.js";

const SIZES = (process.env.BENCH_SIZES ?? "100000,1000000")
  .split(",")
  .map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });

/**
 * `count` distinct addresses and scores, the same in every run: addresses
 * from sha256 (spread as real ones are), scores over many magnitudes with
 * ties among the small ones, as a stage's are.
 */
function rowsOf(count: number): ScoreRow[] {
  const rows: ScoreRow[] = [];
  for (let i = 0; i < count; i++) {
    const hash = createHash("sha256").update(`bench ${i}`).digest();
    const address = `0x${hash.subarray(0, 20).toString("hex")}`;
    const magnitude = BigInt(hash[20] ?? 0) % 40n;
    rows.push({
      address,
      score: hash.readBigUInt64BE(21) >> (64n - magnitude),
    });
  }
  return rows.sort((a, b) => (a.address < b.address ? -1 : 1));
}

/** A scores folder of one final stage of `count` addresses. */
async function stageFolder(dir: string, count: number): Promise<string> {
  const scores = path.join(dir, `scores-${count}`);
  const { mkdir } = await import("node:fs/promises");
  await mkdir(scores);
  const policy = await writePolicy(scores);
  const rows = rowsOf(count);
  const packed = packRows(rows);
  const csv = scoreCsv(packed);
  const hash = `0x${"ab".repeat(32)}`;
  const manifest = stageManifest(
    policy,
    {
      window: { stage: 1n, start: 1_767_225_600n, end: 1_768_435_200n },
      blocks: {
        first: { number: 100n, hash, time: 1_767_225_600n },
        last: { number: 1_209_699n, hash, time: 1_768_435_199n },
        firstNumber: 100n,
        closed: true,
      },
      final: true,
      trial: false,
    },
    { rows: packed, sources: [], engine: "bench" },
    csv,
  );
  await writeStageFiles(scores, manifest, csv);
  return scores;
}

interface Run {
  seconds: number;
  peakMb: number;
  pageBytes: number;
  siteFiles: number;
  largestShardBytes: number;
}

/** `npx hardhat scores:report` in its own process, as a user runs it. */
async function report(dir: string, scores: string, n: number): Promise<Run> {
  const out = path.join(dir, `site-${n}`);
  const rssFile = path.join(dir, `rss-${n}.txt`);
  const args = ["scores:report", "--scores-dir", scores, "--out", out];
  const started = performance.now();
  const child = spawn(process.execPath, [HARDHAT_CLI, ...args], {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      BENCH_RSS_FILE: rssFile,
      NODE_OPTIONS: `--import ${RSS_REPORTER}`,
    },
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) =>
    child.on("exit", resolve),
  );
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`scores:report exited ${code}:\n${output}`);
  const shards = path.join(out, "data", "stage-1");
  const sizes = await Promise.all(
    (await readdir(shards)).map(
      async (f) => (await stat(path.join(shards, f))).size,
    ),
  );
  const run: Run = {
    seconds,
    peakMb: (await peakRss(rssFile)).peak,
    pageBytes: (await stat(path.join(out, "stage-1.html"))).size,
    siteFiles: (await readdir(out, { recursive: true })).length,
    largestShardBytes: Math.max(...sizes),
  };
  await rm(out, { recursive: true, force: true });
  return run;
}

const dir = await mkdtemp(path.join(tmpdir(), "vip-bench-report-"));
const results = new Map<number, Run[]>();
try {
  console.log(
    `scores:report of one final stage, ${RUNS} runs a size, each its own process`,
  );
  for (const count of SIZES) {
    const scores = await stageFolder(dir, count);
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await report(dir, scores, runs.length);
      runs.push(run);
      console.log(
        `  ${fmt(count).padStart(9)} addresses, run ${i + 1}: ${fmt(run.seconds, 2)} s, ` +
          `${fmt(run.peakMb)} MB, page ${fmt(run.pageBytes / 1024, 1)} kB, ` +
          `${fmt(run.siteFiles)} files (largest shard ${fmt(run.largestShardBytes / 1024, 1)} kB)`,
      );
    }
    results.set(count, runs);
    await rm(scores, { recursive: true, force: true });
  }
  console.log(
    "\naddresses      time median / worst     peak memory median / worst   stage page",
  );
  for (const [count, runs] of results) {
    const s = runs.map((r) => r.seconds);
    const m = runs.map((r) => r.peakMb);
    console.log(
      `${fmt(count).padStart(9)}   ${fmt(median(s), 2).padStart(8)} s / ${fmt(worst(s), 2).padStart(6)} s` +
        `   ${fmt(median(m)).padStart(8)} MB / ${fmt(worst(m)).padStart(6)} MB` +
        `   ${fmt(worst(runs.map((r) => r.pageBytes)) / 1024, 1).padStart(8)} kB`,
    );
  }
  const [small, large] = [SIZES[0] ?? 0, SIZES.at(-1) ?? 0];
  const a = results.get(small) ?? [];
  const b = results.get(large) ?? [];
  if (a.length > 0 && b.length > 0 && small !== large) {
    const timeRatio =
      median(b.map((r) => r.seconds)) / median(a.map((r) => r.seconds));
    const memRatio =
      median(b.map((r) => r.peakMb)) / median(a.map((r) => r.peakMb));
    const growth = large / small;
    const page = worst(b.map((r) => r.pageBytes));
    const peak = worst(b.map((r) => r.peakMb));
    const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
    console.log(
      `\n${fmt(growth)}× the addresses: ${fmt(timeRatio, 2)}× the time (goal ≤ 10×: ${verdict(timeRatio <= 10)}), ` +
        `${fmt(memRatio, 2)}× the peak memory (goal ≤ 1.5×: ${verdict(memRatio <= 1.5)})`,
    );
    console.log(
      `at ${fmt(large)}: worst peak memory ${fmt(peak)} MB (goal ≤ 1,024 MB: ${verdict(peak <= 1024)}), ` +
        `stage page ${fmt(page / 1024, 1)} kB (goal ≤ 1,024 kB: ${verdict(page <= 1024 * 1024)})`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
