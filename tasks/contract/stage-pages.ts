import type { VipScore } from "../../types/ethers-contracts/index.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";

/**
 * Page size of a stage read: VipScore's `MAX_PAGE_LIMIT`, twice the VIP agent's
 * 500, so half the calls.
 */
const READ_PAGE = 1000n;
/**
 * Pages asked for at once: enough to keep the node busy between answers, few
 * enough to leave it room.
 */
const PARALLEL_PAGES = 4;

/**
 * Calls `visit` with every score of `stage` on chain (lowercase address,
 * score), in no particular order, as the VIP agent reads them (`getScores`).
 * The stage's `scoreCount` says how many pages there are, so pages are read
 * several at a time; each is decoded straight from the return data, and nothing
 * is kept, so memory does not grow with the stage.
 */
export async function forEachStageScore(
  score: VipScore,
  stage: bigint,
  visit: (address: string, score: bigint) => void,
): Promise<void> {
  const count = await score.scoreCount(stage);
  const provider = score.runner?.provider;
  if (provider === undefined || provider === null)
    throw new VipError(ERRORS.CONTRACT.CALLS.NO_PROVIDER);
  const to = await score.getAddress();
  let next = 0n;
  const worker = async () => {
    while (next < count) {
      const offset = next;
      next += READ_PAGE;
      const data = score.interface.encodeFunctionData("getScores", [
        stage,
        offset,
        READ_PAGE,
      ]);
      decodePage(await provider.call({ to, data }), visit);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_PAGES }, worker));
}

/**
 * `getScores`'s return data: an offset word, a length word, then (addr, amount,
 * index) words per entry.
 */
function decodePage(
  result: string,
  visit: (address: string, score: bigint) => void,
): void {
  const hex = result.startsWith("0x") ? result.slice(2) : result;
  const length = Number.parseInt(hex.slice(64, 128), 16);
  if (!Number.isSafeInteger(length) || hex.length < 128 + length * 192)
    throw new VipError(ERRORS.CONTRACT.CALLS.SHORT_SCORE_PAGE, {
      bytes: hex.length / 2,
      entries: length,
    });
  for (let i = 0, at = 128; i < length; i++, at += 192) {
    visit(
      "0x" + hex.slice(at + 24, at + 64),
      BigInt("0x" + hex.slice(at + 64, at + 128)),
    );
  }
}

/** Every address that holds a score of `stage` on chain (lowercase). */
export async function stageAddresses(
  score: VipScore,
  stage: bigint,
): Promise<string[]> {
  const addresses: string[] = [];
  await forEachStageScore(score, stage, (address) => addresses.push(address));
  return addresses;
}
