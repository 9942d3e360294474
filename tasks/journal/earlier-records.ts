/**
 * Record names earlier versions wrote for what the transaction records now
 * call otherwise: a finalization journalled a transaction that would not be
 * mined as `unsent`, and transfers journal a receipt as `mined` (with its
 * height as `block`, and no gas; a Cosmos step's with the chain's `log`, kept)
 * and the height a `sending` looks for its nonce from as `fromBlock`. Journals
 * of released versions are read through this, so a run of this version
 * resumes them. (Their `sent` without a nonce is read by the transfer's
 * `stepState`, which knows the `sending` before it.)
 */
const RENAMED: Readonly<Record<string, string>> = {
  unsent: "dropped",
  mined: "confirmed",
};

/** A journal line as parsed: a record of any version. */
type StoredRecord = { type: string } & Record<string, unknown>;

/**
 * A record as this version names it; a record of this version, or one no
 * version renamed, unchanged.
 */
export function currentRecord<R extends { type: string }>(
  stored: StoredRecord,
): R {
  const type = RENAMED[stored.type];
  if (type === undefined) return fromBlockAsBlock(stored) as unknown as R;
  if (stored.type !== "mined") return { ...stored, type } as unknown as R;
  // A `mined` record's height is `block`, and it never held the gas used.
  const { block, ...rest } = stored;
  return {
    gasUsed: "0",
    ...rest,
    type,
    blockNumber: block,
  } as unknown as R;
}

/** A transfer's `sending` of an earlier version: its `fromBlock` is `block`. */
function fromBlockAsBlock(stored: StoredRecord): StoredRecord {
  if (stored.type !== "sending" || !("fromBlock" in stored)) return stored;
  const { fromBlock, ...rest } = stored;
  return { block: fromBlock, ...rest };
}
