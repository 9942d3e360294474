import { id } from "ethers";

/**
 * What a push writes: a running stage's scores so far (`live`), or its final
 * scores (`final`), the only ones a stage is finalized from.
 */
export type PushIntent = "live" | "final";

/** What a push says of itself in each of its transactions. */
export interface PushMarker {
  intent: PushIntent;
  /** SHA-256 of the score file pushed, 64 hex digits. */
  sha256: string;
}

/**
 * The marker's last 16 bytes, so it is found from the end of the calldata:
 * the first 16 bytes of keccak256("hardhat-vip-score/push-marker/v1").
 */
const MAGIC = id("hardhat-vip-score/push-marker/v1").slice(2, 34);

const INTENT_BYTE: Record<PushIntent, string> = { live: "01", final: "02" };

/** The marker's length in bytes: the file's SHA-256, the intent, the magic. */
export const MARKER_BYTES = 32 + 1 + 16;

/**
 * `calldata` with the marker appended. The ABI decoder of `updateScores` reads
 * its arguments by offset and ignores bytes after them (as ERC-2771 and
 * ERC-8021 rely on), so the call does exactly what it did; the marker only
 * lets another host, a dashboard or a person tell from the transaction alone
 * which file it pushed and whether as live or as final scores.
 */
export function withMarker(calldata: string, marker: PushMarker): string {
  if (!/^[0-9a-f]{64}$/i.test(marker.sha256))
    throw new RangeError("a push marker's sha256 is 64 hex digits");
  return (
    calldata + marker.sha256.toLowerCase() + INTENT_BYTE[marker.intent] + MAGIC
  );
}

/**
 * The marker a transaction's calldata ends with; undefined for calldata
 * without one (a push by an earlier version, by hand, or an app's call).
 */
export function readMarker(calldata: string): PushMarker | undefined {
  const hex = calldata.toLowerCase();
  const length = MARKER_BYTES * 2;
  if (hex.length < 2 + length || !hex.endsWith(MAGIC)) return undefined;
  const marker = hex.slice(-length);
  const intentByte = marker.slice(64, 66);
  const intent = (Object.keys(INTENT_BYTE) as PushIntent[]).find(
    (key) => INTENT_BYTE[key] === intentByte,
  );
  if (intent === undefined) return undefined;
  return { intent, sha256: marker.slice(0, 64) };
}
