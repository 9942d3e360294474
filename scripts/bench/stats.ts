/**
 * The figures every benchmark prints of its runs: the median (of an even
 * count, the mean of the two middle runs) and the worst.
 */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The largest of the runs' figures (time, memory): the worst run. */
export function worst(values: number[]): number {
  return Math.max(...values);
}
