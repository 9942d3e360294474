import type { VipScore } from "../../types/ethers-contracts/index.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { field, formatNumber, type Output } from "../output.js";
import {
  type ChainComparison,
  compareWithChain,
  describeDifference,
  type Difference,
} from "./read-back.js";
import type { ScoreFile } from "./read.js";

const SHOWN = 20;

/**
 * Reads every score of `stage` back and compares it with the file; any
 * difference fails, listed. A comparison the push already started
 * (`ChainComparison`) is finished instead of starting over.
 */
export async function verifyScores(
  score: VipScore,
  stage: bigint,
  file: ScoreFile,
  out: Output,
  started?: ChainComparison,
): Promise<Difference[]> {
  const differences = await (started?.finish() ??
    compareWithChain(score, stage, file.table));
  if (differences.length === 0) {
    announceVerified(file, out);
    return differences;
  }
  const shown = differences
    .slice(0, SHOWN)
    .map((d) => `  ${describeDifference(d, file.path)}`);
  const more =
    differences.length > SHOWN
      ? [`  … and ${differences.length - SHOWN} more`]
      : [];
  throw new VipError(ERRORS.SCORES.PUSH.CHAIN_DIFFERS, {
    stage,
    file: file.path,
    count: differences.length,
    differences: [...shown, ...more].join("\n"),
  });
}

/** The line that says the chain holds exactly the file. */
export function announceVerified(file: ScoreFile, out: Output): void {
  out.line(
    field(
      "verified",
      `${formatNumber(file.table.length)} scores on chain equal ${file.path}`,
    ),
  );
}
