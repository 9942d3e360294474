import type { VipScore } from "../../types/ethers-contracts/index.js";
import { defined } from "../errors.js";

/**
 * The stage's write count (`writeCount`) at `blockTag` (latest when
 * undefined): the fencing token `finalizeStageAt` checks, so a write that
 * lands after a host proved the stage makes its finalization revert instead of
 * freezing a stage that differs from the proved file. Undefined on a contract
 * deployed before the fence.
 */
export async function stageWriteCount(
  score: VipScore,
  stage: bigint,
  blockTag?: number,
): Promise<bigint | undefined> {
  if (!(await hasFence(score))) return undefined;
  return score.writeCount(stage, blockTag === undefined ? {} : { blockTag });
}

/** Whether each contract fences, asked once per node connection and address. */
const fences = new WeakMap<object, Map<string, Promise<boolean>>>();

/**
 * Whether the contract fences its finalization (`writeCount` and
 * `finalizeStageAt`): its code dispatches both selectors (Solidity's
 * dispatcher pushes each as `PUSH4 <selector>`). Read from the code, not from
 * a call that fails: nodes word a missing function's revert each their own
 * way.
 */
export async function hasFence(score: VipScore): Promise<boolean> {
  const provider = defined(score.runner?.provider, "the contract's provider");
  const address = (await score.getAddress()).toLowerCase();
  let known = fences.get(provider);
  if (known === undefined) {
    known = new Map();
    fences.set(provider, known);
  }
  let fenced = known.get(address);
  if (fenced === undefined) {
    fenced = dispatches(score, [
      score.interface.getFunction("writeCount").selector,
      score.interface.getFunction("finalizeStageAt").selector,
    ]);
    known.set(address, fenced);
    // A failed read (the node) is asked again next time.
    const asked = known;
    fenced.catch(() => asked.delete(address));
  }
  return fenced;
}

async function dispatches(
  score: VipScore,
  selectors: string[],
): Promise<boolean> {
  const provider = defined(score.runner?.provider, "the contract's provider");
  const code = (await provider.getCode(await score.getAddress())).toLowerCase();
  return selectors.every((selector) => code.includes(`63${selector.slice(2)}`));
}
