import { stagePageName } from "./view.js";

/** What the lookup needs to know of a stage to find an address in it. */
export interface LookupStage {
  stage: bigint;
  count: number;
  total: bigint;
  /** The stage has `2^bits` shards (`shards.ts`). */
  bits: number;
}

/** The file every page loads first: the site's stages, for the lookup. */
export const SITE_SCRIPT = "site.js";

/**
 * `site.js`: the stages in order, each with its page, address count, total
 * (a decimal string: a browser's Number would round it) and shard bits. No
 * text from an input: numbers and the pages' own names.
 */
export function siteScript(stages: LookupStage[]): string {
  const data = stages.map((stage) => ({
    stage: stage.stage.toString(),
    page: stagePageName(stage.stage),
    count: stage.count,
    total: stage.total.toString(),
    bits: stage.bits,
  }));
  return `window.vipSite = ${JSON.stringify({ stages: data })};\n`;
}
