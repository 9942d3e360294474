import { existsSync } from "node:fs";

import { ERRORS } from "../error-catalog.js";
import { isVipError } from "../errors.js";
import type { KeptDigestState } from "../indexer/digest-states.js";
import { ActivityStore } from "../indexer/store.js";

/**
 * Keeps the digest states a computation reached in the index, so that the
 * next digest of these sources goes on from them. Only a saving: an index
 * another command has open (an autopilot's scores:index, say) is left as it
 * is, and the next computation pays these rows again.
 */
export async function keepDigestStates(
  indexFile: string,
  states: KeptDigestState[],
): Promise<void> {
  if (states.length === 0 || !existsSync(indexFile)) return;
  let store: ActivityStore;
  try {
    store = await ActivityStore.open(indexFile);
  } catch (error) {
    if (isVipError(error, ERRORS.INDEXER.INDEX.INDEX_IN_USE)) return;
    throw error;
  }
  try {
    await store.keepDigestStates(states);
  } finally {
    store.close();
  }
}
