/**
 * `tasks/scores/vesting.ts`'s rule as the lookup runs it in the reader's
 * browser, in BigInt: a later stage's score is below vesting's minimum of
 * an earlier stage's when `later < ⌊earlier / 2⌋` (BigInt division
 * truncates, as the contract's `mul_by_u64_truncate` does; 7 → 3 is not
 * below). Kept equal to the TypeScript by test/report/browser-scripts.test.ts,
 * which runs this text against the same cases.
 */
export const VESTING_JS = `
function fallsBelowVestingMinimum(before, after) {
  return before > 0n && after < before / 2n;
}
`;
