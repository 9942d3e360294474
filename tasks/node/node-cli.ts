import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";

const run = promisify(execFile);

/** The full path of `name` on PATH, or undefined. */
export async function findOnPath(
  name: string,
  searchPath = process.env.PATH ?? "",
): Promise<string | undefined> {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** What `<cli> version` prints (first non-empty line of stdout or stderr). */
export async function cliVersion(executable: string): Promise<string> {
  let printed: string;
  try {
    const { stdout, stderr } = await run(executable, ["version"], {
      timeout: 10_000,
    });
    printed = `${stdout}\n${stderr}`;
  } catch (error) {
    throw new VipError(
      ERRORS.CONFIG.TOOLS.NODE_CLI_FAILED,
      {
        executable,
        reason: error instanceof Error ? error.message : String(error),
      },
      error,
    );
  }
  const line = printed
    .split("\n")
    .map((l) => l.trim())
    .find(Boolean);
  if (line === undefined)
    throw new VipError(ERRORS.CONFIG.TOOLS.NODE_CLI_SILENT, { executable });
  return line;
}

/**
 * Versions compare without a leading "v": release tags carry it, some builds
 * print without it.
 */
export function sameVersion(a: string, b: string): boolean {
  return a.trim().replace(/^v/, "") === b.trim().replace(/^v/, "");
}
