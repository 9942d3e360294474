import { formatCount } from "./format.js";
import type { Bucket } from "./histogram.js";

const BAR = 40;
const PLOT = 160;
const TOP = 20;

/** A label centred on `x`. */
function text(x: number, y: number, label: string): string {
  return `<text x="${x}" y="${y}" text-anchor="middle">${label}</text>`;
}

/** A bucket's lower bound, short: 0, 1, 2, …, 512, then 2^10, 2^11, … */
function lowLabel(low: bigint): string {
  if (low < 1024n) return low.toString();
  return `2^${low.toString(2).length - 1}`;
}

/**
 * The distribution as an inline SVG bar chart (no script, no font of its
 * own): one bar per non-empty bucket, its height by count, each with a
 * tooltip giving the exact range and count.
 */
export function histogramSvg(buckets: Bucket[]): string {
  if (buckets.length === 0)
    return `<p class="muted">No scores in this stage.</p>`;
  const most = Math.max(...buckets.map((bucket) => bucket.count));
  const width = buckets.length * BAR + 10;
  const parts = buckets.map((bucket, index) => {
    const x = 5 + index * BAR;
    const label = text(x + BAR / 2, TOP + PLOT + 16, lowLabel(bucket.low));
    if (bucket.count === 0) return label;
    const height = Math.max(1, Math.round((bucket.count / most) * PLOT));
    const y = TOP + PLOT - height;
    const range =
      bucket.low === bucket.high
        ? `${bucket.low}`
        : `${bucket.low}–${bucket.high}`;
    return (
      `<g><title>scores ${range}: ${formatCount(bucket.count)} addresses</title>` +
      `<rect class="bar" x="${x + 4}" y="${y}" width="${BAR - 8}" height="${height}"/>` +
      text(x + BAR / 2, y - 4, formatCount(bucket.count)) +
      `${label}</g>`
    );
  });
  return (
    `<svg class="chart" role="img" viewBox="0 0 ${width} ${TOP + PLOT + 22}" ` +
    `aria-label="Number of addresses by score, ` +
    `in powers of two">${parts.join("")}</svg>`
  );
}
