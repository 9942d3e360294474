import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { stageChanges } from "./changes.js";
import { mergeBuckets, scoreHistogram } from "./histogram.js";
import { indexPage } from "./index-page.js";
import type { StageInputs } from "./inputs.js";
import { rankTable } from "./model.js";
import { stagePage } from "./stage-page.js";
import { SHOWN, stagePageName, type StageView } from "./view.js";

/** The most bars the distribution's chart has. */
const CHART_BARS = 16;

/** The name of a policy's copy beside the pages: one per policy text. */
function policyCopyName(sha256: string): string {
  return `policy-${sha256.slice(0, 16)}.sql`;
}

/**
 * Each stage's view, in stage order: ranked, its distribution, and its
 * changes from the stage before it in the folder. `finalized` holds what
 * the contract says, for the stages it was asked about.
 */
export function stageViews(
  inputs: StageInputs[],
  finalized: ReadonlyMap<bigint, boolean> = new Map(),
): StageView[] {
  const views: StageView[] = [];
  inputs.forEach((input, index) => {
    const { entries, total } = rankTable(input.scores.table);
    const before = views[index - 1];
    const manifest = input.manifest;
    views.push({
      stage: input.stage,
      state: {
        final: input.final,
        finalizedOnChain: finalized.get(input.stage),
      },
      files: {
        csv: path.basename(input.scores.path),
        ...(manifest === undefined
          ? {}
          : { manifest: path.basename(manifest.path) }),
      },
      ...(manifest === undefined ? {} : { manifest: manifest.value }),
      ...(input.policy === undefined || manifest === undefined
        ? {}
        : {
            policy: {
              sql: input.policy.sql,
              file: policyCopyName(manifest.value.policy.sha256),
            },
          }),
      entries,
      total,
      histogram: mergeBuckets(
        scoreHistogram(entries.map((entry) => entry.score)),
        CHART_BARS,
      ),
      ...(before === undefined
        ? {}
        : {
            changes: stageChanges(before.stage, before.entries, entries, SHOWN),
            previous: before.stage,
          }),
      next: inputs[index + 1]?.stage,
    });
  });
  return views;
}

/**
 * Every file of the site by name: the pages, and beside them each stage's
 * score file, manifest and policy as they are (the bytes the manifests'
 * sha256s are of). Nothing depends on the time or the machine: the same
 * inputs give the same bytes.
 */
export async function siteFiles(
  inputs: StageInputs[],
  views: StageView[],
): Promise<Map<string, string | Uint8Array>> {
  const files = new Map<string, string | Uint8Array>();
  files.set("index.html", indexPage(views));
  for (const [index, view] of views.entries()) {
    const input = inputs[index];
    if (input === undefined) continue;
    files.set(stagePageName(view.stage), stagePage(view));
    files.set(
      view.files.csv,
      await copyOf(input.scores.path, input.scores.sha256),
    );
    if (input.manifest !== undefined && view.files.manifest !== undefined)
      files.set(view.files.manifest, await readFile(input.manifest.path));
    if (input.policy !== undefined && view.policy !== undefined)
      files.set(view.policy.file, input.policy.bytes);
  }
  return files;
}

/** The file's bytes, refused if they are no longer the ones checked. */
async function copyOf(file: string, sha256: string): Promise<Buffer> {
  const bytes = await readFile(file);
  const actual = createHash("sha256").update(bytes).digest("hex");
  if (actual !== sha256)
    throw new VipError(ERRORS.REPORT.MANIFEST_MISMATCH, {
      manifest: "the report",
      file,
      problem:
        "the file changed while the report was built; run scores:report again",
    });
  return bytes;
}
