import { catalogEntries, type ErrorDescriptor } from "./error-catalog.js";
import { type ErrorParam, isVipError, VipError } from "./errors.js";

/**
 * An error as it crosses to another process or thread: its message and, for
 * a VipError, its descriptor's number and values (a class does not survive
 * the copy; these rebuild the same error, code and all, on the other side).
 */
export interface WireError {
  message: string;
  number?: number;
  params?: Record<string, ErrorParam>;
}

/** `error` in the form that crosses (see `WireError`). */
export function errorOnWire(error: unknown): WireError {
  const message = error instanceof Error ? error.message : String(error);
  return isVipError(error)
    ? { message, number: error.descriptor.number, params: { ...error.params } }
    : { message };
}

/** The catalog's descriptor numbered `number`, if any. */
function descriptorNumbered(number: number): ErrorDescriptor | undefined {
  return catalogEntries().find((entry) => entry.descriptor.number === number)
    ?.descriptor;
}

/**
 * The VipError `wire` came from, made again on this side; undefined when it
 * was not one (or names no descriptor of this catalog).
 */
export function vipErrorFromWire(wire: WireError): VipError | undefined {
  const descriptor =
    wire.number === undefined ? undefined : descriptorNumbered(wire.number);
  if (descriptor === undefined || wire.params === undefined) return undefined;
  // The values came with the descriptor's number: they are its own.
  return new VipError(descriptor, wire.params as never);
}
