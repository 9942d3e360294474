/** How many scores lie in `[low, high]`. */
export interface Bucket {
  low: bigint;
  high: bigint;
  count: number;
}

/**
 * The distribution of scores in powers of two: 0 alone, then [1, 1], [2, 3],
 * [4, 7], … up to the bucket of the highest score, from the bucket of the
 * lowest (empty buckets between kept). Exact for any uint64, and readable
 * when scores span many orders of magnitude, as they do.
 */
export function scoreHistogram(scores: Iterable<bigint>): Bucket[] {
  const counts = new Map<number, number>();
  for (const score of scores) {
    const bits = score === 0n ? 0 : score.toString(2).length;
    counts.set(bits, (counts.get(bits) ?? 0) + 1);
  }
  if (counts.size === 0) return [];
  const present = [...counts.keys()];
  const [first, last] = [Math.min(...present), Math.max(...present)];
  const buckets: Bucket[] = [];
  for (let bits = first; bits <= last; bits++)
    buckets.push({
      low: bits === 0 ? 0n : 1n << BigInt(bits - 1),
      high: bits === 0 ? 0n : (1n << BigInt(bits)) - 1n,
      count: counts.get(bits) ?? 0,
    });
  return buckets;
}

/**
 * At most `most` buckets: neighbours merged in equal groups (the last may be
 * smaller), each keeping its exact range, so a chart of scores spanning
 * sixty powers of two still has bars a phone can show.
 */
export function mergeBuckets(buckets: Bucket[], most: number): Bucket[] {
  if (buckets.length <= most) return buckets;
  const size = Math.ceil(buckets.length / most);
  const merged: Bucket[] = [];
  for (let i = 0; i < buckets.length; i += size) {
    const group = buckets.slice(i, i + size);
    const [first, last] = [group[0], group[group.length - 1]];
    if (first === undefined || last === undefined) continue;
    merged.push({
      low: first.low,
      high: last.high,
      count: group.reduce((sum, bucket) => sum + bucket.count, 0),
    });
  }
  return merged;
}
