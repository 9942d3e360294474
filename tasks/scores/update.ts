import type { HardhatEthersProvider } from "@nomicfoundation/hardhat-ethers/types";
import { ensureError } from "@nomicfoundation/hardhat-utils/error";
import { formatEther, type Provider, type Signer } from "ethers";

import { stageWriteCount } from "../contract/fence.js";
import { preflight } from "../contract/preflight.js";
import { ERRORS } from "../error-catalog.js";
import {
  batchEstimator,
  BatchPlanner,
  type GasLimits,
  gasLimits,
  planBatches,
} from "./batches.js";
import { entryKinds } from "./entry-reader.js";
import { EventProof } from "./event-proof.js";
import { type EntryKind, NEW, SAME } from "./gas-model.js";
import { createProgress } from "./progress.js";
import type { PushIntent } from "../contract/push-marker.js";
import { defined, VipError } from "../errors.js";
import { type PushContext, pushScores, type PushReport } from "./push.js";
import { ChainComparison, type Difference } from "./read-back.js";
import type { ScoreFile } from "./read.js";
import { announceVerified, verifyScores } from "./verify.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
import { currentRecord } from "../journal/earlier-records.js";
import {
  Journal,
  journalPath,
  type JournalRecord,
} from "../journal/journal.js";
import { batchesOf } from "../journal/state.js";
import { counted, field, formatNumber, type Output } from "../output.js";

export interface ScoresUpdateOptions {
  stage: bigint;
  /** The `--network` it runs on: refusals name complete commands for it. */
  network: string;
  dryRun: boolean;
  /**
   * Where journals are kept (`<dir>/chain-<id>/<contract>/stage-<n>.jsonl`).
   */
  journalDir: string;
  /** Start over with this file although the stage's journal records another. */
  replace: boolean;
  skipUnchanged: boolean;
  /** Batches awaiting receipts at once; 0: adaptive, from two blocks' worth. */
  maxInFlight: number;
  maxBatchSize?: number;
  /** A progress bar (terminal) instead of plain lines. */
  interactive?: boolean;
  /**
   * Read every score back after the push (`--full-read-back`) instead of
   * proving the push by its events (`EventProof`).
   */
  fullReadBack?: boolean;
  /**
   * Whether the file is a stage's scores so far or its final scores: said in
   * every batch's calldata (`push-marker.ts`), so another host can tell.
   */
  intent: PushIntent;
  /**
   * With `skipUnchanged`: when the chain holds every score already, the first
   * is written again all the same, so the push leaves its marked transaction
   * (another host reads a final push's claim from it).
   */
  claim?: boolean;
  /** Asked right before each batch is broadcast (`PushContext.beforeBroadcast`). */
  beforeBroadcast?: () => Promise<void>;
}

export interface ScoresUpdateReport {
  addresses: number;
  batches: number;
  sent: number;
  gasUsed: bigint;
  journal?: string;
}

/**
 * Pushes a validated score file to the open stage: checks the stage and the
 * allow list by call, then sends gas-sized batches, pipelined and journalled so
 * that a run stopped at any moment resumes where it was, and finally proves
 * that the stage holds exactly the file: by the push's own events, or by
 * reading every score back (`fullReadBack`).
 */
export async function runScoresUpdate(
  score: VipScore,
  signer: Signer,
  file: ScoreFile,
  options: ScoresUpdateOptions,
  out: Output,
): Promise<ScoresUpdateReport> {
  const { table } = file;
  out.line(
    field(
      "score file",
      `${file.path}: ${counted(table.length, "address", "addresses")}, total score ` +
        `${formatNumber(table.totalScore())}, sha256 ${file.sha256.slice(0, 16)}…`,
    ),
  );
  const target = await checkTarget(score, signer, options, out);
  const plan = await planEntries(target, file, options, out);
  if (options.dryRun) return dryRun(target, file, plan, options, out);

  const journal = await openJournal(target, file, options, out);
  const check = verification(target, file, options);
  const report = await push(target, file, plan, journal, check, options, out);
  await verify(journal, check, out);
  return {
    addresses: table.length,
    batches: report.batches,
    sent: report.sent,
    gasUsed: report.gasUsed,
    journal: journal.path,
  };
}

/** What the push goes to, checked before anything else is done. */
interface PushTarget {
  score: VipScore;
  signer: Signer;
  /**
   * Hardhat's provider, whose eth_sendTransaction the configured key or the
   * Ledger signs.
   */
  provider: HardhatEthersProvider;
  signerAddress: string;
  contract: string;
}

/** How the file's entries are sent: the gas limits, and what each entry does. */
interface EntryPlan {
  limits: GasLimits;
  kinds: Uint8Array | undefined;
  unchanged: ((index: number) => boolean) | undefined;
}

/** Checks by call that the stage is open and the signer allowed. */
async function checkTarget(
  score: VipScore,
  signer: Signer,
  options: ScoresUpdateOptions,
  out: Output,
): Promise<PushTarget> {
  const provider = signer.provider as HardhatEthersProvider;
  const signerAddress = await signer.getAddress();
  const contract = await score.getAddress();
  await preflight(score, signerAddress, options.stage, options.network);
  out.line(
    field(
      "contract",
      `${contract}, stage ${options.stage} open, signer ${signerAddress} allowed`,
    ),
  );
  return { score, signer, provider, signerAddress, contract };
}

/**
 * The gas limits, and what each entry would do on chain, which decides its
 * gas: an empty stage (the usual case) is not read at all.
 */
async function planEntries(
  { score, provider, signerAddress }: PushTarget,
  { table }: ScoreFile,
  options: ScoresUpdateOptions,
  out: Output,
): Promise<EntryPlan> {
  await warnIfShortOfFunds(provider, signerAddress, table.length, out);
  const limits = await gasLimits(provider);
  const kinds =
    (await score.scoreCount(options.stage)) === 0n
      ? undefined
      : await entryKinds(score, options.stage, table);
  let unchanged: ((index: number) => boolean) | undefined;
  if (options.skipUnchanged) {
    unchanged = (i) => kinds?.[i] === SAME;
    let count = 0;
    for (let i = 0; i < table.length; i++) if (unchanged(i)) count++;
    out.line(
      field(
        "unchanged",
        `${formatNumber(count)} of ${formatNumber(table.length)} scores already on chain: skipped`,
      ),
    );
    if (options.claim === true && count === table.length && count > 0) {
      unchanged = (i) => i !== 0 && kinds?.[i] === SAME;
      out.line(
        field(
          "claim",
          `line ${table.line(0)} is written again all the same, so the push leaves its marked transaction`,
        ),
      );
    }
  }
  return { limits, kinds, unchanged };
}

/** `--dry-run`: the batches the push would send, and nothing sent. */
async function dryRun(
  { score }: PushTarget,
  { table }: ScoreFile,
  { limits, kinds, unchanged }: EntryPlan,
  options: ScoresUpdateOptions,
  out: Output,
): Promise<ScoresUpdateReport> {
  const planner = new BatchPlanner(
    table,
    limits,
    (i) => (kinds?.[i] ?? NEW) as EntryKind,
    options.maxBatchSize,
    unchanged,
  );
  const batches = await planBatches(
    planner,
    batchEstimator(score, options.stage, table),
    table.length,
  );
  const gas = batches.reduce((sum, b) => sum + b.gas, 0n);
  const largest = Math.max(0, ...batches.map((b) => b.indexes.length));
  out.line(
    field(
      "plan",
      `${counted(batches.length, "batch", "batches")} of up to ${counted(largest, "address", "addresses")}, ` +
        `~${formatNumber(gas)} gas (${formatNumber(limits.target)} per transaction, ` +
        `${limits.perBlock} per block)`,
    ),
  );
  out.line("dry run: nothing was sent");
  return {
    addresses: table.length,
    batches: batches.length,
    sent: 0,
    gasUsed: 0n,
  };
}

/**
 * The stage's journal: resumed when it records this file and signer, started
 * when there is none (or it was replaced), refused when it records another
 * input without --replace.
 */
async function openJournal(
  { provider, signerAddress, contract }: PushTarget,
  file: ScoreFile,
  options: ScoresUpdateOptions,
  out: Output,
): Promise<Journal> {
  const chainId = (await provider.getNetwork()).chainId;
  const journal = await Journal.open<JournalRecord>(
    journalPath(options.journalDir, chainId, contract, options.stage),
    currentRecord,
  );
  await checkEarlierInput(journal, signerAddress, contract, file, options, out);
  if (journal.start === undefined) {
    const startBlock = await provider.getBlockNumber();
    await journal.append({
      type: "start",
      chainId: chainId.toString(),
      contract,
      stage: options.stage.toString(),
      signer: signerAddress,
      file: file.path,
      sha256: file.sha256,
      entries: file.table.length,
      startBlock,
      at: new Date().toISOString(),
      intent: options.intent,
    });
    out.line(field("journal", journal.path));
  } else {
    const batches = batchesOf(journal.records);
    const done = batches.filter((b) => b.state.status === "confirmed").length;
    out.line(
      field(
        "journal",
        `${journal.path}: resuming, ${done} of ${counted(batches.length, "recorded batch", "recorded batches")} confirmed`,
      ),
    );
  }
  return journal;
}

/**
 * A journal started from another file or signer: refused, unless --replace
 * archives it.
 */
async function checkEarlierInput(
  journal: Journal,
  signerAddress: string,
  contract: string,
  file: ScoreFile,
  options: ScoresUpdateOptions,
  out: Output,
): Promise<void> {
  const previous = journal.start;
  if (previous === undefined) return;
  const otherFile = previous.sha256 !== file.sha256;
  const otherSigner =
    previous.signer.toLowerCase() !== signerAddress.toLowerCase();
  if (!otherFile && !otherSigner) return;
  if (!options.replace) {
    const common = {
      stage: options.stage,
      contract,
      done: batchesOf(journal.records).filter(
        (b) => b.state.status === "confirmed",
      ).length,
      journal: journal.path,
    };
    if (otherFile)
      throw new VipError(ERRORS.SCORES.RESUME.STARTED_FROM_OTHER_FILE, {
        ...common,
        file: previous.file,
        sha256: previous.sha256.slice(0, 16),
        entries: formatNumber(previous.entries),
      });
    throw new VipError(ERRORS.SCORES.RESUME.STARTED_BY_OTHER_SIGNER, {
      ...common,
      signer: previous.signer,
    });
  }
  out.line(
    field(
      "replaced",
      `the earlier journal is kept as ${await journal.archive()}`,
    ),
  );
}

/**
 * How the push is proved: what it is told during the push, and the proof
 * after it.
 */
interface Verification {
  during: Pick<
    PushContext,
    "onConfirmed" | "onAllSent" | "onReceipt" | "onBlock"
  >;
  /** What was proved; throws CHAIN_DIFFERS when the chain differs. */
  prove(out: Output): Promise<Proved>;
}

/**
 * The chain was found to hold the file (no differences): at `block`, with the
 * stage's write count `writeCount` there (the fencing token a finalization
 * passes), when the proof holds at one block.
 */
export interface Proved {
  differences: Difference[];
  block?: number;
  writeCount?: bigint;
}

/** The proof by events, unless the full read-back was asked for. */
function verification(
  { score, contract }: PushTarget,
  file: ScoreFile,
  options: ScoresUpdateOptions,
): Verification {
  return options.fullReadBack === true
    ? fullReadBack(score, file, options.stage)
    : eventProof(score, contract, file, options.stage);
}

/**
 * Every score read back (`ChainComparison`). The read-back starts once every
 * batch is sent: its eth_calls run on the node that mines the push's blocks,
 * and measured while batches were still going out they cost the chain more
 * than they saved the command (docs/benchmarks.md). From then on, the pool
 * holds the rest of the push and confirmed batches are read while the last
 * blocks are mined.
 */
function fullReadBack(
  score: VipScore,
  file: ScoreFile,
  stage: bigint,
): Verification {
  const comparison = new ChainComparison(score, stage, file.table);
  const confirmed: [number, number][] = [];
  let reading = false;
  return {
    during: {
      onConfirmed: (start, end) => {
        if (reading) comparison.check(start, end);
        else confirmed.push([start, end]);
      },
      onAllSent: () => {
        reading = true;
        for (const [start, end] of confirmed.splice(0))
          comparison.check(start, end);
      },
    },
    prove: async (out) => ({
      differences: await verifyScores(score, stage, file, out, comparison),
    }),
  };
}

/**
 * The push proved by its own receipts' events (`EventProof`), which costs the
 * node two calls when nobody else writes; where they do not prove the file,
 * every score is read back to name the differences.
 */
function eventProof(
  score: VipScore,
  contract: string,
  file: ScoreFile,
  stage: bigint,
): Verification {
  const proof = new EventProof(score, contract, stage, file.table);
  return {
    during: {
      onBlock: (block) => proof.block(block),
      onReceipt: (start, end, receipt) => proof.receipt(start, end, receipt),
    },
    prove: async (out) => {
      const outcome = await proof.settle();
      if (!outcome.proved) {
        out.line(
          field(
            "proof",
            `the push's events do not prove the file (${outcome.reason}): reading every score back`,
          ),
        );
        return readBackAtOneCount(score, file, stage, out);
      }
      out.line(
        field(
          "proof",
          `${counted(outcome.byEvents, "score")} by this run's UpdateScore events, ` +
            `${formatNumber(outcome.readBack)} read back; the stage's count and total ` +
            `equal the file's at block ${outcome.block}`,
        ),
      );
      announceVerified(file, out);
      return {
        differences: [],
        block: outcome.block,
        writeCount: await stageWriteCount(score, stage, outcome.block),
      };
    },
  };
}

/**
 * Every score read back, between two reads of the stage's write count: when
 * they agree, nothing wrote the stage during the read-back, so the chain held
 * the file from the block before it (its token is that count).
 */
export async function readBackAtOneCount(
  score: VipScore,
  file: ScoreFile,
  stage: bigint,
  out: Output,
): Promise<Proved> {
  const provider = defined(score.runner?.provider, "the contract's provider");
  const block = await provider.getBlockNumber();
  const before = await stageWriteCount(score, stage, block);
  const differences = await verifyScores(score, stage, file, out);
  const after = await stageWriteCount(score, stage);
  return before === after
    ? { differences, block, writeCount: before }
    : { differences };
}

/** Sends the file's batches, telling `check` what it needs to prove them. */
async function push(
  { score, signer, provider }: PushTarget,
  { table, sha256 }: ScoreFile,
  { limits, kinds, unchanged }: EntryPlan,
  journal: Journal,
  check: Verification,
  options: ScoresUpdateOptions,
  out: Output,
): Promise<PushReport> {
  const progress = createProgress(table.length, out, options.interactive);
  let report;
  try {
    report = await pushScores(
      {
        score,
        signer,
        provider,
        table,
        journal,
        out,
        progress,
        ...check.during,
        beforeBroadcast: options.beforeBroadcast,
      },
      {
        stage: options.stage,
        marker: { intent: options.intent, sha256 },
        limits,
        maxInFlight: options.maxInFlight,
        maxBatchSize: options.maxBatchSize,
        unchanged,
        kinds,
      },
    );
  } catch (error) {
    ensureError(error);
    throw new VipError(
      ERRORS.SCORES.PUSH.PUSH_STOPPED,
      { reason: error.message, journal: journal.path },
      error,
    );
  } finally {
    progress.stop();
  }
  reportPush(report, out);
  return report;
}

function reportPush(report: PushReport, out: Output): void {
  out.line(
    field(
      "sent",
      `${counted(report.addresses, "address", "addresses")} in ${counted(report.batches, "batch", "batches")} ` +
        `(${report.sent} sent by this run, ${report.resumed} found after a restart), ` +
        `${formatNumber(report.gasUsed)} gas` +
        // A run that found every batch confirmed sent none: no "up to 0 in flight".
        (report.sent > 0 ? `, up to ${report.maxInFlight} in flight` : ""),
    ),
  );
  if (report.outOfGas > 0)
    out.warn(
      `${counted(report.outOfGas, "batch", "batches")} ran out of their predicted gas and were sent again ` +
        "with the node's estimate",
    );
}

/**
 * Proves the push (`Verification`) and journals how many scores differ (-1:
 * the proof failed).
 */
async function verify(
  journal: Journal,
  check: Verification,
  out: Output,
): Promise<void> {
  try {
    const { differences, block, writeCount } = await check.prove(out);
    await journal.append({
      type: "verified",
      differences: differences.length,
      at: new Date().toISOString(),
      ...(block === undefined ? {} : { block }),
      ...(writeCount === undefined
        ? {}
        : { writeCount: writeCount.toString() }),
    });
  } catch (error) {
    await journal.append({
      type: "verified",
      differences: -1,
      at: new Date().toISOString(),
    });
    throw error;
  }
}

/**
 * Most a new address costs in `updateScores` (test/contract/gas.test.ts holds
 * the contract to it).
 */
export const MAX_GAS_PER_ADDRESS = 31_000n;

/**
 * Warns before the push when the signer's balance may not cover it: the bound
 * assumes every address is new, so a push of updates costs less, and a push
 * that runs dry stops and resumes once funded, losing nothing.
 */
async function warnIfShortOfFunds(
  provider: Provider,
  signer: string,
  addresses: number,
  out: Output,
): Promise<void> {
  const fees = await provider.getFeeData();
  const fee = fees.maxFeePerGas ?? fees.gasPrice ?? 0n;
  const bound = BigInt(addresses) * MAX_GAS_PER_ADDRESS * fee;
  const balance = await provider.getBalance(signer);
  if (balance < bound) {
    out.warn(
      `the signer ${signer} has ${formatEther(balance)}; ${formatNumber(addresses)} new ` +
        `addresses cost up to ${formatEther(bound)} ` +
        "at the current fee: fund it, or expect the push to stop when it runs dry " +
        "(run the same command again after funding)",
    );
  }
}
