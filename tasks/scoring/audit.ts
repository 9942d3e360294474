import type { VipScore } from "../../types/ethers-contracts/index.js";
import { field, formatNumber, type Output } from "../output.js";
import { forEachStageScore } from "../contract/stage-pages.js";
import type { StageScores } from "./score-stage.js";

/**
 * What a challenger checks: the stage recomputed from its own index against
 * the contract's scores for it (an address the policy does not score counts
 * as 0), and against a published manifest when one is given. Prints every
 * difference with both values; returns how many there are.
 */
export async function auditStage(
  score: VipScore,
  scores: StageScores,
  out: Output,
  manifest?: unknown,
  manifestPath?: string,
): Promise<number> {
  const stage = scores.window.stage;
  const expected = new Map(
    scores.computation.rows.map((r) => [r.address, r.score]),
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
  if (manifest !== undefined)
    differences += compareManifest(
      scores,
      manifest,
      manifestPath ?? "the manifest",
      out,
    );
  if (differences === 0)
    out.line(
      field(
        "audit",
        `stage ${stage}: the contract holds exactly the policy's ${formatNumber(expected.size)} scores` +
          (manifest === undefined ? "" : ", and the manifest matches") +
          (scores.final ? "" : " (the window has not closed: live scores)"),
      ),
    );
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
    "policy",
    "window",
    "blocks",
    "sources",
    "output",
  ])
    check(key, ours[key], theirs[key]);
  return differences;
}
