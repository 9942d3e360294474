import {
  ScoreReader__factory,
  type VipScore,
} from "../../types/ethers-contracts/index.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { CHANGED, NEW, SAME } from "./gas-model.js";
import type { ScoreTable } from "./table.js";
import { forEachStageScore } from "../contract/stage-pages.js";

/**
 * Addresses per reader call: packed 20 bytes each, they and the reader's code
 * stay under the 49,152-byte limit of creation code, and the 9 bytes each it
 * returns under the 24,576-byte code size limit. One call of 2,400 took 70 ms
 * on `hardhat node` where two of 1,400 took 105 (the node's cost per call).
 */
export const READER_BATCH = 2400;
const bytecode = ScoreReader__factory.bytecode;

/**
 * What the chain holds for one entry: whether its address is scored in the
 * stage, and its score.
 */
export type EntryVisitor = (
  index: number,
  indexed: boolean,
  amount: bigint,
) => void;

/**
 * Reads what the chain holds for some entries of the table (at most
 * READER_BATCH) in one `eth_call`: `ScoreReader`'s creation code
 * (contracts/read/ScoreReader.sol) runs with no `to`, reads each address's
 * storage slot through `scores(stage, addr)` and returns 9 bytes per address.
 * `blockTag`: the state after that block (default: the latest).
 */
export async function readEntries(
  score: VipScore,
  stage: bigint,
  table: ScoreTable,
  indexes: readonly number[],
  visit: EntryVisitor,
  blockTag?: number,
): Promise<void> {
  const provider = score.runner?.provider;
  if (provider === undefined || provider === null)
    throw new VipError(ERRORS.SCORES.PUSH.NO_PROVIDER);
  // The creation code, then its arguments ABI-encoded by hand (the contract,
  // the stage, the bytes' offset and length, the addresses packed and padded
  // to a word): ethers' coder takes longer than the call itself.
  const parts = [
    bytecode,
    word((await score.getAddress()).slice(2)),
    word(stage.toString(16)),
    word("60"),
    word((indexes.length * 20).toString(16)),
  ];
  for (const i of indexes) parts.push(table.addressHex(i).slice(2));
  parts.push("0".repeat((64 - ((indexes.length * 40) % 64)) % 64));
  const result = await provider.call({ data: parts.join(""), blockTag });
  const hex = result.startsWith("0x") ? result.slice(2) : result;
  if (hex.length !== indexes.length * 18)
    throw new VipError(ERRORS.SCORES.READ_BACK.READER_SHORT_ANSWER, {
      bytes: hex.length / 2,
      count: indexes.length,
    });
  indexes.forEach((i, k) =>
    visit(
      i,
      hex[k * 18 + 1] === "1",
      BigInt("0x" + hex.slice(k * 18 + 2, k * 18 + 18)),
    ),
  );
}

function word(hex: string): string {
  return hex.toLowerCase().padStart(64, "0");
}

/**
 * What each entry of the table would do on chain now (for the gas model): write
 * a new address, change a score, or write the score the chain already holds.
 * One byte per entry; read two calls at a time.
 */
export async function entryKinds(
  score: VipScore,
  stage: bigint,
  table: ScoreTable,
): Promise<Uint8Array> {
  const kinds = new Uint8Array(table.length).fill(NEW);
  let next = 0;
  const worker = async () => {
    while (next < table.length) {
      const from = next;
      next = Math.min(table.length, from + READER_BATCH);
      const indexes = Array.from({ length: next - from }, (_, k) => from + k);
      await readEntries(score, stage, table, indexes, (i, indexed, amount) => {
        if (indexed) kinds[i] = amount === table.score(i) ? SAME : CHANGED;
      });
    }
  };
  try {
    await Promise.all([worker(), worker()]);
  } catch {
    // A node that runs no creation code in eth_call: the stage's pages say the
    // same, at more cost.
    kinds.fill(NEW);
    await forEachStageScore(score, stage, (address, amount) => {
      const i = table.indexOf(address);
      if (i !== undefined)
        kinds[i] = amount === table.score(i) ? SAME : CHANGED;
    });
  }
  return kinds;
}
