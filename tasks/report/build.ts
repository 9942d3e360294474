import { indexPage } from "./index-page.js";
import { stageSources } from "./inputs.js";
import { LOOKUP_SCRIPT, lookupScript } from "./lookup-script.js";
import { SITE_SCRIPT, siteScript } from "./site-script.js";
import { writeStages } from "./site.js";
import { checkOut, writeSite } from "./write-site.js";

export interface ReportOptions {
  /** The folder of score files and manifests. */
  scoresDir: string;
  /** The folder the site is written to, replaced whole. */
  out: string;
  /** The policy file, or its folder (default: `scoresDir`). */
  policy?: string;
  /** Whether the contract holds the stage finalized; absent without a network. */
  finalizedOnChain?: (stage: bigint) => Promise<boolean>;
  /**
   * The rollup's network as the pages' commands name it (`scores:audit
   * --network …`); default "rollup", a reader puts their own.
   */
  network?: string;
}

/** The network the pages' commands name when none is given. */
const DEFAULT_NETWORK = "rollup";

/**
 * Builds the static site of the stages in `scoresDir` into `out`. Every
 * manifest and policy is checked before a score is read; then the stages
 * are written one at a time into a folder beside `out` (a score file
 * refused midway leaves `out` as it was), which takes `out`'s place whole.
 */
export async function buildReport(
  options: ReportOptions,
): Promise<{ stages: bigint[]; files: number }> {
  await checkOut(options.out);
  const sources = await stageSources(
    options.scoresDir,
    options.policy ?? options.scoresDir,
  );
  const finalized = new Map<bigint, boolean>();
  if (options.finalizedOnChain !== undefined)
    for (const { stage } of sources)
      finalized.set(stage, await options.finalizedOnChain(stage));
  let files = 0;
  await writeSite(options.out, async (site) => {
    const counted = {
      write: (name: string, content: string | Uint8Array) => {
        files += 1;
        return site.write(name, content);
      },
      copyChecked: (name: string, from: string, sha256: string) => {
        files += 1;
        return site.copyChecked(name, from, sha256);
      },
    };
    const { views, lookups } = await writeStages(counted, sources, {
      finalized,
      network: options.network ?? DEFAULT_NETWORK,
    });
    await counted.write(SITE_SCRIPT, siteScript(lookups));
    await counted.write(LOOKUP_SCRIPT, lookupScript());
    await counted.write("index.html", indexPage(views));
  });
  return { stages: sources.map((source) => source.stage), files };
}
