import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { LogColumns } from "../../tasks/indexer/decode.js";
import { ActivityStore } from "../../tasks/indexer/store.js";
import { parsePolicy, type Policy } from "../../tasks/policy/parse.js";
import type { StageBlocks } from "../../tasks/scoring/stage-blocks.js";

/** The source every hand-built index here holds: TradeLog's `Trade`. */
const TRADE_CONTRACT = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const TRADE_HEADER = `-- @policy hostile
-- @from-stage 1
-- @source trades ${TRADE_CONTRACT} event Trade(address indexed trader, uint256 notional, uint16 leverage)
`;
export const STAGE_WINDOW = { stage: 7n, start: 1_000n, end: 2_000n };

/**
 * A closed stage's blocks `first`–`last` in STAGE_WINDOW's times (the first
 * at its start, the last before its end), each hash a digit repeated.
 */
export function closedStageBlocks(first: bigint, last: bigint): StageBlocks {
  return {
    first: { number: first, hash: "0x" + "1".repeat(64), time: 1_000n },
    last: { number: last, hash: "0x" + "2".repeat(64), time: 1_900n },
    firstNumber: first,
    closed: true,
  };
}

export const STAGE_BLOCKS = closedStageBlocks(10n, 19n);

/** One trade as the hand-built index holds it. */
export interface HandTrade {
  block: bigint;
  tx: number;
  log: number;
  trader: string;
  notional: bigint;
  leverage: bigint;
}

/**
 * `count` trades from 50 traders over blocks 10–19 (the stage) and 20–24
 * (after it): several transactions a block and several logs a transaction,
 * leverage 1–5, so many trades tie on leverage and on their block.
 */
export function tiedTrades(count = 1_000): HandTrade[] {
  return Array.from({ length: count }, (_, i) => ({
    block: BigInt(10 + (i % 15)),
    tx: i % 7,
    log: Math.floor(i / 105),
    trader: `0x${(1 + (i % 50)).toString(16).padStart(40, "0")}`,
    notional: BigInt(i * 1_000),
    leverage: BigInt(1 + (i % 5)),
  }));
}

/** A fresh index in a temporary folder holding `trades`, indexed through block 25. */
export async function tradeIndex(
  trades: HandTrade[],
): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), "vip-trades-"));
  const file = path.join(dir, "chain-1.duckdb");
  const store = await ActivityStore.open(file);
  const source = tradePolicy("select 1").sources[0];
  if (source === undefined) throw new Error("no source parsed");
  await store.ensureSource(source);
  const logs = new LogColumns(3);
  trades.forEach((t) =>
    logs.push({
      blockNumber: t.block,
      blockTime: 1_000n + (t.block - 10n) * 100n,
      txHash: `0x${(Number(t.block) * 100 + t.tx).toString(16).padStart(64, "0")}`,
      txIndex: t.tx,
      logIndex: t.log,
      values: [t.trader, t.notional, t.leverage],
    }),
  );
  await store.begin();
  await store.storeRange([source], 25n, new Map([[source.id, logs]]), []);
  await store.commit();
  store.close();
  return { dir, file };
}

export function tradePolicy(select: string, file = "hostile.sql"): Policy {
  return parsePolicy(file, TRADE_HEADER + select);
}
