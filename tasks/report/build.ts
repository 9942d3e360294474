import { inputsOf } from "./inputs.js";
import { siteFiles, stageViews } from "./site.js";
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
}

/**
 * Builds the static site of the stages in `scoresDir` into `out`: every
 * input is read and checked, and every page made, before anything is
 * written; then the site takes `out`'s place whole.
 */
export async function buildReport(
  options: ReportOptions,
): Promise<{ stages: bigint[]; files: string[] }> {
  await checkOut(options.out);
  const inputs = await inputsOf(
    options.scoresDir,
    options.policy ?? options.scoresDir,
  );
  const finalized = new Map<bigint, boolean>();
  if (options.finalizedOnChain !== undefined)
    for (const { stage } of inputs)
      finalized.set(stage, await options.finalizedOnChain(stage));
  const files = await siteFiles(inputs, stageViews(inputs, finalized));
  await writeSite(options.out, files);
  return {
    stages: inputs.map((input) => input.stage),
    files: [...files.keys()].sort(),
  };
}
