import type { VipScore } from "../../types/ethers-contracts/index.js";
import type { Journal } from "../journal/journal.js";
import type { Output } from "../output.js";
import type { ScoreFile } from "./read.js";
import { readBackAtOneCount } from "./update.js";

/** A proof that a stage holds a file: what a finalization is fenced by. */
export interface Proof {
  sha256: string;
  /**
   * Pushed as final scores: a live push of the same content proves the same
   * chain, but leaves no final claim for another host to read.
   */
  final: boolean;
  /** The block the chain was proved at, when the proof holds at one block. */
  block?: number;
  /** The stage's write count at that block (fenced contracts). */
  writeCount?: bigint;
}

/**
 * The proof a stage's push journal holds: the file's SHA-256, whether it was
 * pushed as final scores, and where its last proof held (a proof that found
 * differences, or none yet, is no proof).
 */
export function journalledProof(journal: Journal): Proof | undefined {
  const start = journal.start;
  const verified = journal.records.findLast((r) => r.type === "verified");
  if (start === undefined || verified?.type !== "verified") return undefined;
  if (verified.differences !== 0) return undefined;
  return {
    sha256: start.sha256,
    final: start.intent === "final",
    ...(verified.block === undefined ? {} : { block: verified.block }),
    ...(verified.writeCount === undefined
      ? {}
      : { writeCount: BigInt(verified.writeCount) }),
  };
}

/**
 * A final file without scores, proved: the stage must hold none either (an
 * address scored live must be in the file with 0). Proved at one block, with
 * the stage's write count there. Nothing is sent.
 */
export async function proveEmptyStage(
  score: VipScore,
  file: ScoreFile,
  stage: bigint,
  out: Output,
): Promise<Proof> {
  const { block, writeCount } = await readBackAtOneCount(
    score,
    file,
    stage,
    out,
  );
  return {
    sha256: file.sha256,
    final: true,
    ...(block === undefined ? {} : { block }),
    ...(writeCount === undefined ? {} : { writeCount }),
  };
}
