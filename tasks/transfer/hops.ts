/**
 * A one-key wrapper (an operation, a transfer_sequence entry): its kind and
 * body.
 */
export function operationKindOf(wrapper: Record<string, unknown>): {
  kind: string;
  body: Record<string, unknown>;
} {
  for (const [key, value] of Object.entries(wrapper)) {
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return { kind: key, body: value as Record<string, unknown> };
  }
  return { kind: "unknown", body: {} };
}
