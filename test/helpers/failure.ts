import { expect } from "chai";

import type { CliResult } from "./hardhat-cli.js";
import {
  catalogEntries,
  type ErrorDescriptor,
} from "../../tasks/error-catalog.js";
import {
  defined,
  errorCode,
  type ErrorParams,
  isVipError,
  type VipError,
} from "../../tasks/errors.js";

const PLUGIN_ERROR = "Error in community plugin hardhat-vip-score: ";

/**
 * The plugin's error message of a failed run, after asserting it failed with a
 * non-zero exit code (and, given a descriptor, with that error's code).
 */
export function failure(result: CliResult, expected?: ErrorDescriptor): string {
  expect(result.code, result.output).to.not.equal(0);
  const line = result.output
    .split("\n")
    .find((l) => l.startsWith(PLUGIN_ERROR));
  expect(line, result.output).to.not.equal(undefined);
  const message = defined(line, "a plugin error line was found above").slice(
    PLUGIN_ERROR.length,
  );
  if (expected !== undefined)
    expect(message, result.output).to.match(
      new RegExp(`^${errorCode(expected)}: `),
    );
  return message;
}

/** The error a promise rejects with, asserted to be the descriptor's. */
export async function refusal<D extends ErrorDescriptor>(
  promise: Promise<unknown>,
  expected: D,
): Promise<VipError<D>> {
  try {
    await promise;
  } catch (error) {
    if (isVipError(error, expected)) return error;
    expect.fail(`expected ${errorCode(expected)}, got: ${String(error)}`);
  }
  expect.fail("expected a failure");
}

/** The values of the error `run` throws, asserted to be the descriptor's. */
export function thrownParams<D extends ErrorDescriptor>(
  run: () => unknown,
  expected: D,
): ErrorParams<D> {
  return caught(run, expected).params;
}

/** The error `run` throws, asserted to be the descriptor's. */
export function caught<D extends ErrorDescriptor>(
  run: () => unknown,
  expected: D,
): VipError<D> {
  try {
    run();
  } catch (error) {
    if (isVipError(error, expected)) return error;
    expect.fail(`expected ${errorCode(expected)}, got: ${String(error)}`);
  }
  expect.fail("expected a failure");
}

/**
 * The catalog's descriptor a corpus names as `CATEGORY.NAME` (its
 * sub-category left out: a name is unique in its category); throws for a
 * name the catalog lacks.
 */
export function catalogEntry(key: string): ErrorDescriptor {
  const [category, name] = key.trim().split(".");
  const found = catalogEntries().find(
    (entry) => entry.category === category && entry.name === name,
  );
  if (found === undefined) throw new Error(`no error ${key} in the catalog`);
  return found.descriptor;
}

/** The code a CLI failure printed first (`VIP-E5020`). */
export function failureCode(result: CliResult): string {
  return failure(result).split(":", 1)[0] ?? "";
}
