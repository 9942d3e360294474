import { assertHardhatInvariant } from "@nomicfoundation/hardhat-errors";
import { HardhatPluginError } from "hardhat/plugins";

import type { ErrorDescriptor } from "./error-catalog.js";
import { printable } from "./output.js";

export const PLUGIN_ID = "hardhat-vip-score";

/** How an error's code is printed and looked up in docs/errors.md. */
export function errorCode(descriptor: ErrorDescriptor): string {
  return `VIP-E${descriptor.number}`;
}

/** The names between braces in a message template: `{file}` → "file". */
type TemplateNames<T extends string> =
  T extends `${string}{${infer Name}}${infer Rest}`
    ? Name | TemplateNames<Rest>
    : never;

/** A value a message template can show. */
export type ErrorParam = string | number | bigint;

/** The values an error's message template names, each by its name. */
export type ErrorParams<D extends ErrorDescriptor> = {
  [Name in TemplateNames<D["message"]>]: ErrorParam;
};

/** A descriptor whose template names nothing takes no values. */
type ErrorArgs<D extends ErrorDescriptor> = [
  TemplateNames<D["message"]>,
] extends [never]
  ? [params?: Record<string, never>, cause?: unknown]
  : [params: ErrorParams<D>, cause?: unknown];

/** The template with each `{name}` replaced by its value. */
function formatMessage(
  template: string,
  params: Readonly<Record<string, ErrorParam>>,
): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/**
 * An error the operator can act on, made from a descriptor of the catalog
 * (`tasks/error-catalog.ts`): its code is stable, its message prints with the
 * code first, and docs/errors.md says what causes it and what to do. Hardhat
 * prints it without a stack trace and exits non-zero. Code branches on the
 * descriptor (`isVipError`), never on the message. Messages never carry keys
 * or full RPC URLs (those may embed API keys).
 */
export class VipError<
  D extends ErrorDescriptor = ErrorDescriptor,
> extends HardhatPluginError {
  readonly descriptor: D;
  readonly code: string;
  readonly params: ErrorParams<D>;
  /** The message without its code: as a part of another error's message. */
  readonly text: string;

  constructor(descriptor: D, ...[params, cause]: ErrorArgs<D>) {
    const values = (params ?? {}) as ErrorParams<D>;
    // Parts of a message may come from elsewhere (a node, a policy, an
    // API): whatever was missed where they were put in prints as text.
    const message = printable(formatMessage(descriptor.message, values));
    // A catch block holds `unknown`: what is not an Error is no cause.
    super(
      PLUGIN_ID,
      `${errorCode(descriptor)}: ${message}`,
      cause instanceof Error ? cause : undefined,
    );
    this.descriptor = descriptor;
    this.code = errorCode(descriptor);
    this.params = values;
    this.text = message;
  }

  /** Whether this error was made from `descriptor`. */
  madeFrom(descriptor: ErrorDescriptor): boolean {
    return this.descriptor.number === descriptor.number;
  }
}

/**
 * Whether `error` is a VipError, or one made from `descriptor`: the way code
 * tells errors apart (as Hardhat's `HardhatError.isHardhatError`).
 */
export function isVipError<D extends ErrorDescriptor>(
  error: unknown,
  descriptor?: D,
): error is VipError<D> {
  if (!(error instanceof VipError)) return false;
  return descriptor === undefined || error.madeFrom(descriptor);
}

/**
 * An error's message as a part of another message: a VipError's without its
 * code (the error that tells it has its own), any other's as it is.
 */
export function messageOf(error: unknown): string {
  if (error instanceof VipError) return error.text;
  return error instanceof Error ? error.message : String(error);
}

/**
 * `error` and what it wraps through `cause`, outermost first, at most `most`
 * of them: where a library keeps a status, a body or a system's code on an
 * inner error.
 */
export function causeChain(error: unknown, most = 6): unknown[] {
  const chain: unknown[] = [];
  for (
    let e = error;
    e !== undefined && e !== null && chain.length < most;
    e = (e as { cause?: unknown }).cause
  )
    chain.push(e);
  return chain;
}

/**
 * How much of an error a line of output or another error's message shows:
 * - `"first line"`: the first line of `messageOf` (enough to say what went
 *   wrong);
 * - `"with code"`: the first line with a VipError's code in front, for a
 *   warning an operator may search for;
 * - `"one line"`: the whole of `messageOf` (a list of problems) on one line,
 *   for an alert that is one line on stderr and one JSON string.
 */
export type ReasonForm = "first line" | "with code" | "one line";

/** An error as a reason in a warning or a wrapping error: see `ReasonForm`. */
export function reasonOf(
  error: unknown,
  form: ReasonForm = "first line",
): string {
  if (form === "one line")
    return messageOf(error)
      .replace(/:\n\s*/g, ": ")
      .replace(/\n\s*/g, "; ");
  const message =
    form === "with code" && error instanceof Error
      ? error.message
      : messageOf(error);
  return message.split("\n", 1)[0] ?? "";
}

/**
 * The value the caller knows is there. `holds` says in words what guarantees
 * it (e.g. "the pattern always captures the hex digits"): where that
 * knowledge is wrong, Hardhat's internal error says which promise broke,
 * instead of a TypeError later.
 */
export function defined<T>(value: T | null | undefined, holds: string): T {
  assertHardhatInvariant(value !== undefined && value !== null, holds);
  return value;
}
