import { expect } from "chai";

import type { CliResult } from "./hardhat-cli.js";
import { defined } from "../../tasks/errors.js";

const PLUGIN_ERROR = "Error in community plugin hardhat-vip-score: ";

/**
 * The plugin's error message of a failed run, after asserting it failed with a
 * non-zero exit code.
 */
export function failure(result: CliResult): string {
  expect(result.code, result.output).to.not.equal(0);
  const line = result.output
    .split("\n")
    .find((l) => l.startsWith(PLUGIN_ERROR));
  expect(line, result.output).to.not.equal(undefined);
  return defined(line, "line").slice(PLUGIN_ERROR.length);
}

/** The message a promise rejects with; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error("expected a failure");
}
