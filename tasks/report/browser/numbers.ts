/**
 * `numbers.ts`'s grouping and share, as the lookup runs them in the reader's
 * browser: BigInt, so a uint64 score and its share stay exact. Kept equal to
 * the TypeScript by test/report/browser-scripts.test.ts, which runs this text.
 */
export const NUMBERS_JS = `
function groupThousands(decimal) {
  return decimal.replace(/\\B(?=(\\d{3})+(?!\\d))/g, ",");
}
function shareOfTotal(score, total) {
  if (score <= 0n || total <= 0n) return "0";
  var decimals = 4;
  var scale = 10n ** 6n;
  while ((score * scale) / total < 10n) {
    decimals += 1;
    scale *= 10n;
  }
  var units = (score * scale * 2n + total) / (2n * total);
  while (score < total && units >= scale) {
    decimals += 1;
    scale *= 10n;
    units = (score * scale * 2n + total) / (2n * total);
  }
  var unit = 10n ** BigInt(decimals);
  return (units / unit).toString() + "." + (units % unit).toString().padStart(decimals, "0");
}
function shareText(score, total) {
  return shareOfTotal(score, total) + "\\u00a0%";
}
`;
