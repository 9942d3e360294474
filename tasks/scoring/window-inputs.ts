import type { ActivityContext } from "./context.js";
import { stageBlocks, type StageBlocks } from "./stage-blocks.js";
import {
  type ScoredWindow,
  type ScoreTarget,
  trialWindow,
  windowLabel,
} from "./target.js";
import { fetchChainTime } from "../clients/l1-rest.js";
import { fetchStageWindow } from "../clients/stage-window.js";
import { indexPolicies, rollupReader } from "../indexer/index-policies.js";
import type { IndexReport } from "../indexer/index-sources.js";
import { field, formatUnixTime } from "../output.js";
import type { Policy } from "../policy/parse.js";

/** What a window's computation reads besides the policy. */
export interface WindowInputs {
  window: ScoredWindow;
  trial: boolean;
  blocks: StageBlocks;
  final: boolean;
  indexed: IndexReport;
}

/**
 * The window (a stage's from the base chain, or the trial's as given), the
 * index brought up to the rollup's head for every policy's sources, and the
 * window's blocks by their timestamps. A stage is final once the base
 * chain's time is past its end and the rollup has a block at or after it; a
 * trial is never final, and asks the base chain nothing.
 */
export async function windowInputs(
  ctx: ActivityContext,
  policies: Policy[],
  policyPath: string | undefined,
  target: ScoreTarget,
): Promise<WindowInputs> {
  const trial = target.kind === "trial";
  const window = trial
    ? trialWindow(target)
    : await fetchStageWindow(ctx.l1RestUrl, ctx.moduleAddress, target.stage);
  const baseTime = trial ? undefined : await fetchChainTime(ctx.l1RestUrl);
  const reader = rollupReader(ctx);
  const indexed = await indexPolicies(ctx, policies, { reader, policyPath });
  const blocks = await stageBlocks(reader, window, indexed.head);
  ctx.out.line(
    field(
      "window",
      `${windowLabel(window, trial)}` +
        (trial
          ? " (a trial: the base chain is not asked)"
          : `: ${formatUnixTime(window.start)} to ${formatUnixTime(window.end)}`) +
        `; rollup blocks ${blocks.firstNumber}–${blocks.last.number}${blocks.closed ? "" : " (so far)"}`,
    ),
  );
  const final =
    baseTime !== undefined && baseTime >= window.end && blocks.closed;
  if (!final) ctx.out.line(field("open", openClocks(window, blocks, baseTime)));
  return { window, trial, blocks, final, indexed };
}

/**
 * Which clock has not reached the window's end yet, and where it stands:
 * what a newcomer waits for.
 */
function openClocks(
  window: ScoredWindow,
  blocks: StageBlocks,
  baseTime: bigint | undefined,
): string {
  const end = formatUnixTime(window.end);
  const said: string[] = [];
  if (baseTime !== undefined && baseTime < window.end)
    said.push(
      `the base chain's time is ${formatUnixTime(baseTime)}, before the end ${end}`,
    );
  if (!blocks.closed)
    said.push(
      `the rollup's last block (${blocks.last.number}) is at ${formatUnixTime(blocks.last.time)}, ` +
        `before the end ${end}: the window closes on the rollup at its first block at or after it`,
    );
  if (baseTime === undefined)
    said.push(
      blocks.closed
        ? "the window has closed on the rollup; a trial's scores are never final"
        : "a trial's scores are never final",
    );
  return said.join("; ");
}
