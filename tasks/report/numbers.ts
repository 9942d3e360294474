/**
 * How the report writes a score and a share, exactly; `browser/numbers.ts`
 * does the same in the reader's browser (a test holds the two equal).
 */

/** The fewest decimals of a share: 12.3456 %. */
const SHARE_DECIMALS = 4;

/** The significant digits a small share keeps: 0.000021 %, never 0.0000 %. */
const SHARE_DIGITS = 2;

/** A whole number's decimal digits grouped by thousands: "1,152,921,504". */
export function groupThousands(decimal: string): string {
  return decimal.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * `score`'s share of `total` in percent, in integer arithmetic: four
 * decimals, or as many more as it takes to show two significant digits, so
 * a score above 0 never reads as 0, and a score below the total never as
 * 100 %; the last digit rounded half up. "0" for a score of 0.
 */
export function shareOfTotal(score: bigint, total: bigint): string {
  if (score <= 0n || total <= 0n) return "0";
  const least = 10n ** BigInt(SHARE_DIGITS - 1);
  let decimals = SHARE_DECIMALS;
  let scale = 10n ** BigInt(decimals + 2);
  // Each step multiplies the floor by ten, so this ends within the digits
  // of `total`.
  while ((score * scale) / total < least) {
    decimals += 1;
    scale *= 10n;
  }
  let units = (score * scale * 2n + total) / (2n * total);
  // Rounded up to the whole (scale is 100 %) while something is missing.
  while (score < total && units >= scale) {
    decimals += 1;
    scale *= 10n;
    units = (score * scale * 2n + total) / (2n * total);
  }
  const unit = 10n ** BigInt(decimals);
  const fraction = (units % unit).toString().padStart(decimals, "0");
  return `${units / unit}.${fraction}`;
}

/** A score as the pages print it: exact, grouped by thousands. */
export function scoreText(score: bigint): string {
  return groupThousands(score.toString());
}
