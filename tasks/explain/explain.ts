import { formatUnixTime } from "../output.js";
import type { SourceEvidence } from "./evidence.js";
import type { Policy } from "../policy/parse.js";
import { rankOf, sharePercent } from "../report/model.js";
import { packedScore, packedTotal } from "../scoring/score-rows.js";
import type { StageScores } from "../scoring/score-stage.js";

/** What the contract holds for the address, where it is deployed. */
export interface OnChainScore {
  contract: string;
  score: bigint;
  /** The address has a score entry in the stage (even 0). */
  indexed: boolean;
  finalized: boolean;
}

/** One address's score in a stage, where it stands, and where it came from. */
export interface Explanation {
  /** The stage; a trial's `--stage-number`, else null. */
  stage: bigint | null;
  /** A trial window (`--window`), not a stage of the program. */
  trial: boolean;
  address: string;
  policy: Pick<Policy, "name" | "file" | "sha256">;
  window: { start: bigint; end: bigint };
  blocks: { first: bigint; last: bigint; closed: boolean };
  /** The window has closed on both clocks: the scores can no longer change. */
  final: boolean;
  /** The policy scores the address (a row of its answer, even 0). */
  scored: boolean;
  score: bigint;
  rank: number;
  addresses: number;
  total: bigint;
  /** Percent of the total, to four decimals (as the report shows it). */
  share: string;
  onChain?: OnChainScore;
  evidence: SourceEvidence[];
}

/** The explanation of `address` from a stage's scores and its evidence. */
export function explanation(
  address: string,
  scores: StageScores,
  evidence: SourceEvidence[],
  onChain: OnChainScore | undefined,
): Explanation {
  const rows = scores.computation.rows;
  const scored = packedScore(rows, address);
  const score = scored ?? 0n;
  const total = packedTotal(rows);
  return {
    stage: scores.window.stage,
    trial: scores.trial,
    address,
    policy: {
      name: scores.policy.name,
      file: scores.policy.file,
      sha256: scores.policy.sha256,
    },
    window: { start: scores.window.start, end: scores.window.end },
    blocks: {
      first: scores.blocks.firstNumber,
      last: scores.blocks.last.number,
      closed: scores.blocks.closed,
    },
    final: scores.final,
    scored: scored !== undefined,
    score,
    rank: rankOf(score, rows.scores),
    addresses: rows.scores.length,
    total,
    share: sharePercent(score, total),
    ...(onChain === undefined ? {} : { onChain }),
    evidence,
  };
}

/** The explanation as one JSON document: integers as decimal strings. */
export function explanationJson(explained: Explanation): string {
  return JSON.stringify(
    explained,
    (_key, value: unknown) =>
      typeof value === "bigint" ? value.toString() : value,
    2,
  );
}

/** A window's ends as UTC times. */
export function windowText(window: { start: bigint; end: bigint }): string {
  return `${formatUnixTime(window.start)} to ${formatUnixTime(window.end)}`;
}
