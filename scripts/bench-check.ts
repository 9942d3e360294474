/**
 * How fast a policy is checked, as operators run it: `npx hardhat
 * scores:check` on a folder of 1 and of 10 policies (ten times the work),
 * and `scores:compute --window` refusing a broken policy (the time to the
 * refusal, before anything is read), beside Hardhat's own start-up
 * (`scores:check --help`). Each command in its own process, several runs:
 * median and worst. Run with `npm run bench:check` (BENCH_RUNS, default 5).
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { median, worst } from "./bench/stats.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const HARDHAT = path.join(
  ROOT,
  "node_modules",
  "hardhat",
  "dist",
  "src",
  "cli.js",
);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

/** Wall seconds of one run of `hardhat <args>`, and its exit code. */
function timed(args: string[]): { seconds: number; code: number | null } {
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [HARDHAT, ...args, "--no-typechain"],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      encoding: "utf8",
    },
  );
  return { seconds: (performance.now() - started) / 1000, code: run.status };
}

function figures(label: string, args: string[], expectedCode: number): number {
  const seconds: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = timed(args);
    if (run.code !== expectedCode)
      throw new Error(`${label}: exit ${run.code}, expected ${expectedCode}`);
    seconds.push(run.seconds);
  }
  console.log(
    `${label.padEnd(58)}${median(seconds).toFixed(2).padStart(8)} s${worst(seconds).toFixed(2).padStart(8)} s`,
  );
  return median(seconds);
}

const dir = await mkdtemp(path.join(tmpdir(), "vip-bench-check-"));
try {
  const sample = await readFile(
    path.join(ROOT, "scripts", "sample-policy", "perp-volume.sql"),
    "utf8",
  );
  const folder = async (count: number) => {
    const at = path.join(dir, `policies-${count}`);
    await mkdir(at);
    for (let i = 1; i <= count; i++)
      await writeFile(
        path.join(at, `${i}.sql`),
        sample.replace(/@from-stage \d+/, `@from-stage ${i}`),
      );
    return at;
  };
  const one = await folder(1);
  const ten = await folder(10);
  const broken = path.join(dir, "broken.sql");
  await writeFile(broken, sample.replace("//", "/"));
  console.log(
    `${RUNS} runs each, each in its own process${" ".repeat(21)}median   worst`,
  );
  const startUp = figures(
    "hardhat start-up (scores:check --help)",
    ["scores:check", "--help"],
    0,
  );
  const single = figures(
    "scores:check, 1 policy",
    ["scores:check", "--policy", one],
    0,
  );
  const tenfold = figures(
    "scores:check, 10 policies",
    ["scores:check", "--policy", ten],
    0,
  );
  const refusal = figures(
    "scores:compute --window, a floating-point policy refused",
    [
      "scores:compute",
      "--network",
      "rollup",
      "--policy",
      broken,
      "--window",
      "last-1d",
      "--out",
      dir,
    ],
    1,
  );
  console.log(
    `\nabove start-up: 1 policy ${(single - startUp).toFixed(2)} s, 10 policies ` +
      `${(tenfold - startUp).toFixed(2)} s (×${((tenfold - startUp) / (single - startUp)).toFixed(1)} ` +
      `for 10× the policies), a refusal ${(refusal - startUp).toFixed(2)} s`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
