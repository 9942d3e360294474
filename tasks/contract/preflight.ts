import type { VipScore } from "../../types/ethers-contracts/index.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";

/**
 * Checks by call, before anything is sent, that `stage` is the contract's open
 * stage and that `signer` is on its allow list. Each refusal says why and what
 * to do, with complete commands for `network`; none advises an irreversible
 * step as the fix for a mistyped stage.
 */
export async function preflight(
  score: VipScore,
  signer: string,
  stage: bigint,
  network: string,
): Promise<void> {
  const [open, initStage, allowed] = await Promise.all([
    score.openStage(),
    score.initStage(),
    score.allowList(signer),
  ]);
  const contract = await score.getAddress();
  if (!allowed) {
    throw new VipError(ERRORS.CONTRACT.ALLOW_LIST.SIGNER_NOT_ALLOWED, {
      signer,
      contract,
      network,
    });
  }
  if (stage === open) return;
  if (stage < initStage) {
    throw new VipError(ERRORS.CONTRACT.STAGES.STAGE_BEFORE_START, {
      stage,
      initStage,
      open,
    });
  }
  if (stage < open)
    throw new VipError(ERRORS.CONTRACT.STAGES.STAGE_FINALIZED, { stage, open });
  throw new VipError(ERRORS.CONTRACT.STAGES.STAGE_NOT_OPEN, {
    stage,
    open,
    network,
  });
}

/** `--stage` as a uint64 stage number, with an error naming the option. */
export function parseStage(raw: string): bigint {
  if (!/^\d+$/.test(raw.trim()))
    throw new VipError(ERRORS.CONTRACT.STAGES.STAGE_NOT_NUMBER, { value: raw });
  const stage = BigInt(raw.trim());
  if (stage === 0n || stage >= 2n ** 64n)
    throw new VipError(ERRORS.CONTRACT.STAGES.STAGE_OUT_OF_RANGE, {
      value: raw,
    });
  return stage;
}
