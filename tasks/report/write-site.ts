import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  rename,
  rm,
  writeFile,
} from "node:fs/promises";
import path from "node:path";

import { ensureError } from "@nomicfoundation/hardhat-utils/error";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";

/** The file that says a folder is a report, so the next run may replace it. */
const MARKER = ".vip-report";
const MARKER_TEXT =
  "Written by hardhat-vip-score's scores:report; the next run replaces this folder whole.\n";

/**
 * Refuses `out` before anything is read or written when it is a file, or a
 * folder holding files that no earlier report wrote.
 */
export async function checkOut(out: string): Promise<void> {
  let names: string[];
  try {
    if (!(await lstat(out)).isDirectory())
      throw new VipError(ERRORS.REPORT.OUT_IS_FILE, { out });
    names = await readdir(out);
  } catch (error) {
    ensureError(error);
    if ("code" in error && error.code === "ENOENT") return;
    throw error;
  }
  if (names.length > 0 && !names.includes(MARKER))
    throw new VipError(ERRORS.REPORT.OUT_NOT_A_REPORT, { out });
}

/**
 * Writes the site's files into a new folder beside `out`, then puts it in
 * `out`'s place: a reader (or a static host) sees the old report or the new
 * one, never half of one, and a failed run leaves the old one as it was.
 */
export async function writeSite(
  out: string,
  files: ReadonlyMap<string, string | Uint8Array>,
): Promise<void> {
  await checkOut(out);
  const target = path.resolve(out);
  const parent = path.dirname(target);
  let staging: string | undefined;
  let movedAside = false;
  try {
    await mkdir(parent, { recursive: true });
    staging = await mkdtemp(
      path.join(parent, `.${path.basename(target)}.new-`),
    );
    for (const [name, content] of [...files, [MARKER, MARKER_TEXT] as const])
      await writeFile(path.join(staging, name), content);
    movedAside = await moveAside(target, `${staging}.old`);
    await rename(staging, target);
  } catch (error) {
    ensureError(error);
    if (staging !== undefined) {
      if (movedAside)
        await rename(`${staging}.old`, target).catch(() => undefined);
      await rm(staging, { recursive: true, force: true });
    }
    throw new VipError(
      ERRORS.REPORT.OUT_UNWRITABLE,
      { out, reason: error.message },
      error,
    );
  }
  if (movedAside) await rm(`${staging}.old`, { recursive: true, force: true });
}

/** Renames an earlier report out of the way; false when there was none. */
async function moveAside(target: string, old: string): Promise<boolean> {
  try {
    await rename(target, old);
    return true;
  } catch (error) {
    ensureError(error);
    if ("code" in error && error.code === "ENOENT") return false;
    throw error;
  }
}
