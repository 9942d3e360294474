import type { StageRanks } from "./ranks.js";
import { shardBits, shardFile, shardOf, shardScript } from "./shards.js";
import type { SiteWriter } from "./write-site.js";
import type { ScoreTable } from "../scores/table.js";

/**
 * The table's rows grouped by shard, as row numbers in typed arrays (a
 * counting sort): shard `s` holds `order[starts[s]]` up to
 * `order[starts[s + 1]]`.
 */
function groupByShard(
  table: ScoreTable,
  bits: number,
): { order: Uint32Array; starts: Uint32Array } {
  const shards = 2 ** bits;
  const shardOfRow = new Uint32Array(table.length);
  const starts = new Uint32Array(shards + 1);
  for (let i = 0; i < table.length; i++) {
    const shard = shardOf(table.addressBytes(i), bits);
    shardOfRow[i] = shard;
    starts[shard + 1] = (starts[shard + 1] ?? 0) + 1;
  }
  for (let s = 0; s < shards; s++)
    starts[s + 1] = (starts[s + 1] ?? 0) + (starts[s] ?? 0);
  const next = starts.slice(0, shards);
  const order = new Uint32Array(table.length);
  for (let i = 0; i < table.length; i++) {
    const shard = shardOfRow[i] ?? 0;
    const at = next[shard] ?? 0;
    order[at] = i;
    next[shard] = at + 1;
  }
  return { order, starts };
}

/**
 * Writes the stage's lookup data: every shard file, an empty one too (a
 * lookup never asks for a file that is not there), each shard's rows in
 * address order so the same scores give the same bytes. One shard's rows
 * are held as text at a time. Returns the stage's shard bits.
 */
export async function writeStageShards(
  site: SiteWriter,
  stage: bigint,
  table: ScoreTable,
  ranks: StageRanks,
): Promise<number> {
  const bits = shardBits(table.length);
  const { order, starts } = groupByShard(table, bits);
  for (let shard = 0; shard < 2 ** bits; shard++) {
    const rows: string[] = [];
    for (let at = starts[shard] ?? 0; at < (starts[shard + 1] ?? 0); at++) {
      const row = order[at] ?? 0;
      const score = table.score(row);
      rows.push(
        `${table.addressHex(row).slice(2)},${score},${ranks.rankOf(score)}`,
      );
    }
    rows.sort();
    await site.write(
      shardFile(stage, bits, shard),
      shardScript(stage, shard, rows),
    );
  }
  return bits;
}
