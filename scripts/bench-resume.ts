/**
 * Kill-and-rerun benchmark, as an operator lives it: BENCH_ADDRESSES (100,000)
 * fresh addresses pushed with `hardhat scores:update` to a new contract on a
 * local `hardhat node` (a block every BENCH_BLOCK_MS, 500; BENCH_BLOCK_GAS,
 * 150,000,000), killed with SIGKILL once BENCH_KILL_AT (0.5) of the addresses
 * are confirmed in its journal, then the same command run again to its end.
 * Then the contract is read directly (every score by the reader, the stage's
 * count and total) and must equal the file, and each batch must have gone out
 * once. Prints both runs' times and peak memory, the rerun's proof line and
 * the check. Run with `npm run bench:resume`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { JsonRpcProvider, Wallet } from "ethers";

import {
  mineEvery,
  scoresUpdateEnv,
  writeSampleScoreFile,
} from "./bench/local-node.js";
import { peakRss } from "./bench/rss.js";
import { Journal } from "../tasks/journal/journal.js";
import { batchesOf, type JournalledBatch } from "../tasks/journal/state.js";
import { compareWithChain } from "../tasks/scores/read-back.js";
import { readScoreFile } from "../tasks/scores/read.js";
import { HARDHAT_CLI, PROJECT_ROOT } from "../test/helpers/hardhat-cli.js";
import { startHardhatNode } from "../test/helpers/hardhat-node.js";
import { DEPLOYER, DEPLOYER_KEY } from "../test/helpers/keys.js";
import { VipScore__factory } from "../types/ethers-contracts/index.js";

const ADDRESSES = Number(process.env.BENCH_ADDRESSES ?? 100_000);
const BLOCK_MS = Number(process.env.BENCH_BLOCK_MS ?? 500);
const BLOCK_GAS = BigInt(process.env.BENCH_BLOCK_GAS ?? 150_000_000);
const KILL_AT = Number(process.env.BENCH_KILL_AT ?? 0.5);
const STAGE = 1n;

const dir = await mkdtemp(path.join(tmpdir(), "vip-bench-resume-"));
const node = await startHardhatNode();

try {
  await mineEvery(node.url, { blockMs: BLOCK_MS, blockGas: BLOCK_GAS });
  const provider = new JsonRpcProvider(node.url, undefined, {
    cacheTimeout: -1,
  });
  const score = await new VipScore__factory(
    new Wallet(DEPLOYER_KEY, provider), // Hardhat's public test key, on a throwaway local node
  ).deploy(STAGE);
  await score.waitForDeployment();
  const contract = await score.getAddress();

  const file = path.join(dir, "scores.csv");
  await writeSampleScoreFile(file, ADDRESSES, "resume");

  const journalDir = path.join(dir, "journal");
  const journalFile = path.join(
    journalDir,
    `chain-${node.chainId}`,
    contract.toLowerCase(),
    `stage-${STAGE}.jsonl`,
  );
  const nonceBefore = await provider.getTransactionCount(DEPLOYER);

  console.log(
    `\nbench:resume: ${ADDRESSES.toLocaleString("en-US")} fresh addresses, block every ` +
      `${BLOCK_MS} ms, block gas limit ${BLOCK_GAS.toLocaleString("en-US")}; killed (SIGKILL) ` +
      `once ${KILL_AT * 100}% are confirmed, then run again\n`,
  );
  const first = command(file, contract, journalDir, "first");
  const killAt = await killWhenConfirmed(first.child, journalFile);
  const killed = await first.done;
  console.log(
    `first run: killed after ${killed.seconds.toFixed(1)} s with ` +
      `${killAt.addresses.toLocaleString("en-US")} addresses in ${killAt.batches} batch(es) confirmed ` +
      "(killed: no peak memory reported)",
  );

  const second = await command(file, contract, journalDir, "second").done;
  if (second.code !== 0)
    throw new Error(`the rerun exited with ${second.code}:\n${second.output}`);
  for (const label of ["journal", "sent", "proof", "verified"]) {
    const line = new RegExp(`^${label}\\s.*$`, "m").exec(second.output);
    console.log(`rerun ${line?.[0] ?? `(no ${label} line)`}`);
  }
  console.log(
    `rerun: ${second.seconds.toFixed(1)} s, peak ${second.peakMb.toFixed(0)} MB ` +
      `(its processes added: ${second.allMb.toFixed(0)} MB)`,
  );

  // The check, independent of the command: every score read back from the
  // contract, its count and total, and the transactions sent.
  const table = (await readScoreFile(file)).table;
  const differences = await compareWithChain(score, STAGE, table);
  const count = await score.scoreCount(STAGE);
  const [, total] = await score.stages(STAGE);
  const journal = await journalledBatches(journalFile);
  const batches = journal.length;
  const confirmed = journal.filter(confirmedWell).length;
  const sent = (await provider.getTransactionCount(DEPLOYER)) - nonceBefore;
  const exact =
    differences.length === 0 &&
    count === BigInt(table.length) &&
    total === table.totalScore() &&
    confirmed === batches &&
    sent === batches;
  console.log(
    `check: ${differences.length} score(s) differ from the file (read back), ` +
      `count ${count} (file ${table.length}), total ${total === table.totalScore() ? "equal" : "differs"}; ` +
      `${batches} batches, ${confirmed} confirmed, ${sent} transactions sent: ` +
      (exact ? "EXACT" : "NOT EXACT"),
  );
  if (!exact) process.exitCode = 1;
} finally {
  await node.close();
  await rm(dir, { recursive: true, force: true });
}

/** `hardhat scores:update` in its own process (Hardhat's CLI, so a kill reaches it). */
function command(
  file: string,
  contract: string,
  journalDir: string,
  run: string,
): {
  child: ChildProcess;
  done: Promise<{
    code: number | null;
    seconds: number;
    peakMb: number;
    allMb: number;
    output: string;
  }>;
} {
  const rssFile = path.join(dir, `rss-${run}.jsonl`);
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      HARDHAT_CLI,
      "scores:update",
      "--network",
      "rollup",
      "--stage",
      String(STAGE),
      "--file",
      file,
      "--contract",
      contract,
      "--journal-dir",
      journalDir,
      "--no-typechain",
    ],
    {
      cwd: PROJECT_ROOT,
      env: scoresUpdateEnv(node.url, rssFile),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const done = new Promise<number | null>((resolve) =>
    child.on("close", resolve),
  ).then(async (code) => ({
    code,
    seconds: (performance.now() - started) / 1000,
    // A killed process reports nothing at its exit.
    ...(existsSync(rssFile)
      ? (({ peak, all }) => ({ peakMb: peak, allMb: all }))(
          await peakRss(rssFile),
        )
      : { peakMb: Number.NaN, allMb: Number.NaN }),
    output,
  }));
  return { child, done };
}

/**
 * Kills `child` with SIGKILL once the journal records KILL_AT of the addresses
 * confirmed; what was confirmed then.
 */
async function killWhenConfirmed(
  child: ChildProcess,
  journalFile: string,
): Promise<{ addresses: number; batches: number }> {
  for (;;) {
    if (child.exitCode !== null)
      throw new Error("the first run ended before the kill point");
    const confirmed = existsSync(journalFile)
      ? (await journalledBatches(journalFile)).filter(confirmedWell)
      : [];
    const addresses = confirmed.reduce((sum, b) => sum + b.end - b.start, 0);
    const batches = confirmed.length;
    if (addresses >= ADDRESSES * KILL_AT) {
      child.kill("SIGKILL");
      return { addresses, batches };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The journal's batches, each in its last recorded state (a line torn by the kill is skipped). */
async function journalledBatches(file: string): Promise<JournalledBatch[]> {
  return batchesOf((await Journal.open(file)).records).filter(
    (batch) => batch !== undefined,
  );
}

function confirmedWell(batch: JournalledBatch): boolean {
  return batch.state.status === "confirmed" && batch.state.success;
}
