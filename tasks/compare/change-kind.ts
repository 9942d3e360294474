/**
 * What a policy change does to one address. An address is scored where its
 * score is above 0: an address a policy answers with 0 and one it does not
 * answer are the same (0, a share of 0), as in the report, `scores:audit`
 * and the contract, which pays nothing for either.
 * - `gained`: scored only under the proposed policy;
 * - `lost`: scored only under the current policy;
 * - `changed`: scored under both, differently;
 * - `unchanged`: scored under both, the same;
 * - `unscored`: 0 under both (named with 0 by one of them).
 */
export type ChangeKind =
  "gained" | "lost" | "changed" | "unchanged" | "unscored";

export const CHANGE_KINDS: readonly ChangeKind[] = [
  "gained",
  "lost",
  "changed",
  "unchanged",
  "unscored",
];

export function changeKind(pair: {
  before: bigint;
  after: bigint;
}): ChangeKind {
  const { before, after } = pair;
  if (before === 0n) return after === 0n ? "unscored" : "gained";
  if (after === 0n) return "lost";
  return before === after ? "unchanged" : "changed";
}
