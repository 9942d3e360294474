import { unpackRows } from "./score-rows.js";
import type { StageScores } from "./score-stage.js";
import { windowLabel } from "./target.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
import { forEachStageScore } from "../contract/stage-pages.js";
import { field, formatNumber, type Output } from "../output.js";

/**
 * What a challenger checks: the stage recomputed from its own index against
 * the contract's scores for it (an address the policy does not score counts
 * as 0), and against a published manifest when one is given. Prints every
 * difference with both values; returns how many there are.
 */
export async function auditStage(
  /** The contract, when there is a stage to compare with. */
  score: VipScore | undefined,
  scores: StageScores,
  out: Output,
  manifest?: unknown,
  manifestPath?: string,
): Promise<number> {
  const stage = scores.window.stage;
  let differences =
    score === undefined || stage === null
      ? 0
      : await compareContract(score, stage, scores, out);
  if (manifest !== undefined)
    differences += compareManifest(
      scores,
      manifest,
      manifestPath ?? "the manifest",
      out,
    );
  if (differences === 0) {
    const count = formatNumber(scores.computation.rows.scores.length);
    const holds =
      score === undefined
        ? `the manifest matches the policy's ${count} scores`
        : `the contract holds exactly the policy's ${count} scores` +
          (manifest === undefined ? "" : ", and the manifest matches");
    out.line(
      field(
        "audit",
        `${windowLabel(scores.window, scores.trial)}: ${holds}` +
          (scores.final || scores.trial
            ? ""
            : " (the window has not closed: live scores)"),
      ),
    );
  }
  return differences;
}

/**
 * Every address whose score in the contract's stage differs from the
 * policy's (one it does not score counts as 0), printed; how many.
 */
async function compareContract(
  score: VipScore,
  stage: bigint,
  scores: StageScores,
  out: Output,
): Promise<number> {
  const expected = new Map(
    unpackRows(scores.computation.rows).map((r) => [r.address, r.score]),
  );
  const onChain = new Map<string, bigint>();
  await forEachStageScore(score, stage, (address, amount) => {
    onChain.set(address.toLowerCase(), amount);
  });
  const addresses = [
    ...new Set([...expected.keys(), ...onChain.keys()]),
  ].sort();
  let differences = 0;
  for (const address of addresses) {
    const policy = expected.get(address) ?? 0n;
    const chain = onChain.get(address);
    if ((chain ?? 0n) === policy) continue;
    differences++;
    out.line(
      `differs  ${address}: policy ${policy}, contract ${chain === undefined ? "never scored" : chain}`,
    );
  }
  return differences;
}

function compareManifest(
  scores: StageScores,
  manifest: unknown,
  where: string,
  out: Output,
): number {
  const ours = scores.manifest as unknown as Record<string, unknown>;
  const theirs = (manifest ?? {}) as Record<string, unknown>;
  let differences = 0;
  const check = (label: string, a: unknown, b: unknown) => {
    const left = JSON.stringify(a);
    const right = JSON.stringify(b);
    if (left === right) return;
    differences++;
    out.line(
      `differs  ${where}: ${label}: manifest ${right}, recomputed ${left}`,
    );
  };
  for (const key of [
    "stage",
    "trial",
    "policy",
    "window",
    "blocks",
    "sources",
    "output",
  ])
    check(key, ours[key], theirs[key]);
  return differences;
}
