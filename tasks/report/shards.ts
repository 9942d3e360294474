/**
 * The lookup's data: each stage's scores split into shards the reader's
 * browser loads one at a time, as script files (a page under a
 * Content-Security-Policy of its own files can load those from `file://`,
 * where it could not fetch JSON). An address's shard is a hash of its 20
 * bytes, not its first digits: addresses that share a prefix (a vanity
 * prefix, or sequential test addresses) would fill one shard; a hash spreads
 * any set evenly. `browser/shards.ts` computes the same in the browser.
 */

/** At most this many rows a shard, on average: some 30 kB to load. */
const SHARD_ROWS = 512;

/** The function a shard file calls, defined by the lookup's script. */
export const SHARD_CALLBACK = "vipShard";

/**
 * The shards of a stage of `count` addresses, as a power of two: the fewest
 * that keep `SHARD_ROWS` or fewer a shard on average.
 */
export function shardBits(count: number): number {
  let bits = 0;
  while (count > SHARD_ROWS * 2 ** bits) bits += 1;
  return bits;
}

/**
 * An address's shard among `2^bits`: FNV-1a over its 20 bytes, then
 * MurmurHash3's finalizer so every bit of the address moves the low bits.
 */
export function shardOf(address: Uint8Array, bits: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < address.length; i++)
    hash = Math.imul(hash ^ (address[i] ?? 0), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) & (2 ** bits - 1);
}

/** The folder of a stage's shards, beside the pages. */
function shardFolder(stage: bigint): string {
  return `data/stage-${stage}`;
}

/** A shard's file, from the site's root: `data/stage-7/1a3.js`. */
export function shardFile(stage: bigint, bits: number, shard: number): string {
  const digits = Math.max(1, Math.ceil(bits / 4));
  return `${shardFolder(stage)}/${shard.toString(16).padStart(digits, "0")}.js`;
}

/**
 * A shard file's text: one call handing the lookup its stage, its number
 * and its rows, `address,score,rank` a line (lowercase hex without 0x,
 * decimal digits: nothing that needs escaping in a string literal).
 */
export function shardScript(
  stage: bigint,
  shard: number,
  rows: string[],
): string {
  return `${SHARD_CALLBACK}("${stage}",${shard},"${rows.join("\\n")}");\n`;
}
