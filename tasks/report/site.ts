import path from "node:path";

import { stageChanges } from "./changes.js";
import { mergeBuckets, scoreHistogram } from "./histogram.js";
import { readStageScores, type StageSource } from "./inputs.js";
import { policyPlaces } from "./policy-place.js";
import { StageRanks } from "./ranks.js";
import type { LookupStage } from "./site-script.js";
import { stagePage } from "./stage-page.js";
import { writeStageShards } from "./stage-shards.js";
import { topEntries } from "./top.js";
import { SHOWN, stagePageName, type StageView } from "./view.js";
import type { SiteWriter } from "./write-site.js";
import type { ScoreTable } from "../scores/table.js";

/** The most bars the distribution's chart has. */
const CHART_BARS = 16;

/** What the pages of every stage share. */
export interface StagesOptions {
  /** What the contract says, for the stages it was asked about. */
  finalized: ReadonlyMap<bigint, boolean>;
  /** The rollup's network as the pages' commands name it. */
  network: string;
}

/** The stage before, while the next one is written: its changes need it. */
interface Previous {
  stage: bigint;
  table: ScoreTable;
}

/** A stage's view: its place among the stages, ranked, its distribution. */
function stageView(
  source: StageSource,
  table: ScoreTable,
  ranks: StageRanks,
  context: StagesOptions & {
    previous?: Previous;
    next?: bigint;
    policyFile?: string;
  },
): StageView {
  const { manifest, policy } = source;
  const { previous, policyFile } = context;
  return {
    stage: source.stage,
    state: {
      final: source.final,
      finalizedOnChain: context.finalized.get(source.stage),
    },
    files: {
      csv: path.basename(source.scoresPath),
      ...(manifest === undefined
        ? {}
        : { manifest: path.basename(manifest.path) }),
    },
    ...(manifest === undefined ? {} : { manifest: manifest.value }),
    ...(policy === undefined || policyFile === undefined
      ? {}
      : { policy: { sql: policy.sql, file: policyFile } }),
    network: context.network,
    count: table.length,
    total: ranks.total,
    top: topEntries(table, ranks, SHOWN),
    histogram: mergeBuckets(scoreHistogram(ranks.scores()), CHART_BARS),
    ...(previous === undefined
      ? {}
      : {
          changes: stageChanges(
            previous.stage,
            previous.table,
            table,
            ranks,
            SHOWN,
          ),
          previous: previous.stage,
        }),
    next: context.next,
  };
}

/**
 * Writes every stage's files, in stage order, one stage's scores held at a
 * time (and the stage before's table, for the changes): its lookup shards,
 * its page, and beside them its score file, manifest and policy as they
 * are (the bytes the manifests' sha256s are of; the policy under the
 * manifest's name for it). Nothing depends on the time or the machine: the
 * same inputs give the same bytes. Returns the views the index lists and
 * what the lookup needs of each stage.
 */
export async function writeStages(
  site: SiteWriter,
  sources: StageSource[],
  options: StagesOptions,
): Promise<{ views: StageView[]; lookups: LookupStage[] }> {
  const placeOf = policyPlaces(
    sources.flatMap((source) => source.manifest?.value.policy ?? []),
  );
  const written = new Set<string>();
  const views: StageView[] = [];
  const lookups: LookupStage[] = [];
  let previous: Previous | undefined;
  for (const [index, source] of sources.entries()) {
    const scores = await readStageScores(source);
    const ranks = new StageRanks(scores.table);
    const bits = await writeStageShards(
      site,
      source.stage,
      scores.table,
      ranks,
    );
    const manifest = source.manifest;
    const policyFile =
      manifest === undefined ? undefined : placeOf(manifest.value.policy);
    const view = stageView(source, scores.table, ranks, {
      ...options,
      ...(previous === undefined ? {} : { previous }),
      ...(policyFile === undefined ? {} : { policyFile }),
      next: sources[index + 1]?.stage,
    });
    await site.write(stagePageName(source.stage), stagePage(view));
    await site.copyChecked(view.files.csv, scores.path, scores.sha256);
    if (manifest !== undefined && view.files.manifest !== undefined)
      await site.write(view.files.manifest, manifest.bytes);
    if (source.policy !== undefined && policyFile !== undefined) {
      if (!written.has(policyFile))
        await site.write(policyFile, source.policy.bytes);
      written.add(policyFile);
    }
    views.push(view);
    lookups.push({
      stage: source.stage,
      count: ranks.count,
      total: ranks.total,
      bits,
    });
    previous = { stage: source.stage, table: scores.table };
  }
  return { views, lookups };
}
