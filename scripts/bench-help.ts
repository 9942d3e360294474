/**
 * What the plugin costs every `npx hardhat` command before any task runs:
 * `npx hardhat --help` in Hardhat's own sample project (the mocha-ethers
 * template `hardhat --init` writes), as it is and with this package
 * installed from its tarball and added to its plugins. Each run in its own
 * process, the two alternating; median and worst. Run with `npm run
 * bench:help` (BENCH_RUNS, default 15).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { median, worst } from "./bench/stats.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const TEMPLATE = path.join(
  ROOT,
  "node_modules",
  "hardhat",
  "templates",
  "02-mocha-ethers",
);

/** The sample project's one plugin. */
const TOOLBOX = "@nomicfoundation/hardhat-toolbox-mocha-ethers";

async function installedVersion(name: string): Promise<string> {
  const manifest = path.join(ROOT, "node_modules", name, "package.json");
  return (JSON.parse(await readFile(manifest, "utf8")) as { version: string })
    .version;
}

/** The tarball `npm run package` prints on its last line. */
function packedTarball(): string {
  const printed = execFileSync(
    process.execPath,
    [
      path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"),
      "scripts/package.ts",
    ],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
  );
  const tarball = printed.trim().split("\n").at(-1) ?? "";
  if (!tarball.endsWith(".tgz"))
    throw new Error(`npm run package printed ${tarball}`);
  return tarball;
}

/**
 * The sample project with the package installed: its packages come from
 * this repository's installed tree (hard links), as the package's install
 * test does, and the template's toolbox from npm's cache or the registry.
 */
async function sampleProject(tarball: string): Promise<string> {
  const project = await mkdtemp(path.join(tmpdir(), "vip-bench-help-"));
  for (const name of [
    "hardhat.config.ts",
    "tsconfig.json",
    "contracts",
    "ignition",
  ])
    await cp(path.join(TEMPLATE, name), path.join(project, name), {
      recursive: true,
    });
  await writeFile(
    path.join(project, "package.json"),
    JSON.stringify({ type: "module" }) + "\n",
  );
  execFileSync("cp", [
    "-al",
    path.join(ROOT, "node_modules"),
    path.join(project, "node_modules"),
  ]);
  await rm(path.join(project, "node_modules", ".package-lock.json"), {
    force: true,
  });
  execFileSync(
    "npm",
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      `${TOOLBOX}@${await installedVersion(TOOLBOX)}`,
      tarball,
    ],
    {
      cwd: project,
      stdio: "ignore",
    },
  );
  const config = await readFile(
    path.join(project, "hardhat.config.ts"),
    "utf8",
  );
  const withPlugin = config
    .replace(/^/, 'import vipScore from "hardhat-vip-score";\n')
    .replace(
      "plugins: [hardhatToolboxMochaEthersPlugin]",
      "plugins: [hardhatToolboxMochaEthersPlugin, vipScore]",
    );
  if (withPlugin === config)
    throw new Error("the template's plugins line changed");
  await writeFile(path.join(project, "with-plugin.config.ts"), withPlugin);
  return project;
}

/** Wall seconds of one `hardhat --help` under `config`. */
function helpSeconds(project: string, config: string): number {
  const cli = path.join(
    project,
    "node_modules",
    "hardhat",
    "dist",
    "src",
    "cli.js",
  );
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    [cli, "--config", config, "--help"],
    {
      cwd: project,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      encoding: "utf8",
    },
  );
  if (result.status !== 0)
    throw new Error(`--help exited ${result.status}: ${result.stderr}`);
  return (performance.now() - started) / 1000;
}

/** Median and worst of a run's seconds. */
function figures(seconds: number[]): { median: number; worst: number } {
  return { median: median(seconds), worst: worst(seconds) };
}

const project = await sampleProject(packedTarball());
try {
  // One unmeasured run each: the first compiles the config and warms the
  // disk cache. Then the two alternate, so a busy moment costs both alike.
  helpSeconds(project, "hardhat.config.ts");
  helpSeconds(project, "with-plugin.config.ts");
  const seconds = { without: [] as number[], with: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    seconds.without.push(helpSeconds(project, "hardhat.config.ts"));
    seconds.with.push(helpSeconds(project, "with-plugin.config.ts"));
  }
  const without = figures(seconds.without);
  const withPlugin = figures(seconds.with);
  const line = (label: string, f: { median: number; worst: number }) =>
    console.log(
      `${label.padEnd(44)}median ${f.median.toFixed(3)} s, worst ${f.worst.toFixed(3)} s`,
    );
  console.log(
    `npx hardhat --help in Hardhat's sample project, ${RUNS} runs each:`,
  );
  line("without the plugin", without);
  line("with hardhat-vip-score", withPlugin);
  console.log(
    `the plugin adds ${((withPlugin.median - without.median) * 1000).toFixed(0)} ms to the median`,
  );
} finally {
  await rm(project, { recursive: true, force: true });
}
