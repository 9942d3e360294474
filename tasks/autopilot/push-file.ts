import type { Runtime } from "./runtime.js";
import type { PushIntent } from "../contract/push-marker.js";
import { Journal, journalPath } from "../journal/journal.js";
import { journalledProof, type Proof } from "../scores/proof.js";
import type { ScoreFile } from "../scores/read.js";
import { runScoresUpdate } from "../scores/update.js";

/**
 * A score file to the stage as `scores:update --replace --skip-unchanged`
 * pushes it, marked live or final: only the entries the chain does not hold
 * yet, journalled, proved. A new content replaces the stage's earlier journal;
 * so does a final push of the same file once its earlier push was proved or
 * failed its proof (the chain has changed since: a new push, not a resumed
 * one). A final push that finds every score on chain already writes one all
 * the same: its marked transaction is its claim, which another host reads.
 */
export async function pushFile(
  rt: Runtime,
  file: ScoreFile,
  stage: bigint,
  intent: PushIntent,
  {
    claim = false,
    beforeBroadcast,
  }: { claim?: boolean; beforeBroadcast?: () => Promise<void> } = {},
): Promise<void> {
  const { ctx, options } = rt;
  const journal = await stageJournal(rt, stage);
  // A final push of a file pushed before (proved since, or as live scores of
  // the same content) is a new push, not the earlier one resumed.
  if (
    intent === "final" &&
    (journal.records.some((record) => record.type === "verified") ||
      (journal.start !== undefined && journal.start.intent !== "final"))
  )
    await journal.archive();
  const report = await runScoresUpdate(
    ctx.score,
    ctx.signer,
    file,
    {
      stage,
      dryRun: false,
      replace: true,
      skipUnchanged: true,
      maxInFlight: 0,
      journalDir: options.journalDir,
      network: options.network,
      interactive: false,
      intent,
      claim,
      ...(beforeBroadcast === undefined ? {} : { beforeBroadcast }),
    },
    ctx.out,
  );
  ctx.monitor?.pushed(report.addresses);
}

/** This host's proof that `stage` holds a file, from the stage's journal. */
export async function stageProof(
  rt: Runtime,
  stage: bigint,
): Promise<Proof | undefined> {
  return journalledProof(await stageJournal(rt, stage));
}

/** This host's journal of the stage's pushes. */
async function stageJournal(rt: Runtime, stage: bigint): Promise<Journal> {
  const { ctx, options } = rt;
  return Journal.open(
    journalPath(
      options.journalDir,
      ctx.chainId,
      await ctx.score.getAddress(),
      stage,
    ),
  );
}
