import type { VipScore } from "../../types/ethers-contracts/index.js";
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
  const address = await score.getAddress();
  if (!allowed) {
    throw new VipError(
      `the signer ${signer} is not on the allow list of ${address}: an allowed account must add it ` +
        `(npx hardhat allowlist:add --address ${signer} --network ${network}, signed with an allowed key)`,
    );
  }
  if (stage === open) return;
  if (stage < initStage) {
    throw new VipError(
      `stage ${stage} precedes the contract's start stage ${initStage}; the open stage is ${open}`,
    );
  }
  if (stage < open)
    throw new VipError(
      `stage ${stage} is already finalized; the contract's open stage is ${open}`,
    );
  throw new VipError(
    `stage ${stage} is not open yet: the contract's open stage is ${open}. Check --stage: ` +
      `npx hardhat stage --network ${network} shows the contract's open stage beside the base chain's`,
  );
}

/** `--stage` as a uint64 stage number, with an error naming the option. */
export function parseStage(raw: string): bigint {
  if (!/^\d+$/.test(raw.trim()))
    throw new VipError(
      `--stage ${raw} is not a stage number (a positive whole number)`,
    );
  const stage = BigInt(raw.trim());
  if (stage === 0n || stage >= 2n ** 64n)
    throw new VipError(
      `--stage ${raw} is out of range: stages run from 1 to 2^64 - 1`,
    );
  return stage;
}
