import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import {
  copyFile,
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
      throw new VipError(ERRORS.REPORT.SITE.OUT_IS_FILE, { out });
    names = await readdir(out);
  } catch (error) {
    ensureError(error);
    if ("code" in error && error.code === "ENOENT") return;
    throw error;
  }
  if (names.length > 0 && !names.includes(MARKER))
    throw new VipError(ERRORS.REPORT.SITE.OUT_NOT_A_REPORT, { out });
}

/** Where a report's files go while it is built: a folder beside `out`. */
export interface SiteWriter {
  /** Writes a file of the site (`name` from its root, `/` between folders). */
  write(name: string, content: string | Uint8Array): Promise<void>;
  /**
   * Copies `from` into the site as `name`, refused (nothing published) if
   * its bytes are no longer the ones whose sha256 was checked.
   */
  copyChecked(name: string, from: string, sha256: string): Promise<void>;
}

/**
 * Builds the site with `build` into a new folder beside `out`, then puts
 * it in `out`'s place: a reader (or a static host) sees the old report or
 * the new one, never half of one, and a failed run (a refused input, a
 * full disk) leaves the old one as it was and nothing beside it. What a
 * killed run left beside `out` (its staging folder, an old site moved
 * aside) is removed first, so a rerun ends as an uninterrupted run does.
 * `build` streams: a stage's files are written as they are made, so no
 * stage is held whole.
 */
export async function writeSite(
  out: string,
  build: (site: SiteWriter) => Promise<void>,
): Promise<void> {
  await checkOut(out);
  const target = path.resolve(out);
  const parent = path.dirname(target);
  const staging = await unwritable(out, async () => {
    await mkdir(parent, { recursive: true });
    await removeLeftovers(parent, path.basename(target));
    return mkdtemp(path.join(parent, `.${path.basename(target)}.new-`));
  });
  let movedAside = false;
  try {
    await build(stagingWriter(out, staging));
    await unwritable(out, async () => {
      await writeFile(path.join(staging, MARKER), MARKER_TEXT);
      movedAside = await moveAside(target, `${staging}.old`);
      await rename(staging, target);
    });
  } catch (error) {
    if (movedAside)
      await rename(`${staging}.old`, target).catch(() => undefined);
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  if (movedAside) await rm(`${staging}.old`, { recursive: true, force: true });
}

/**
 * The staging folders (`.<out>.new-XXXXXX`, mkdtemp's six characters) and
 * old sites moved aside (`….old`) that a killed run left beside `out`.
 */
async function removeLeftovers(parent: string, base: string): Promise<void> {
  const prefix = `.${base}.new-`;
  for (const name of await readdir(parent))
    if (
      name.startsWith(prefix) &&
      /^[A-Za-z0-9]{6}(\.old)?$/.test(name.slice(prefix.length))
    )
      await rm(path.join(parent, name), { recursive: true, force: true });
}

/** The writer of the folder being built; a failed write says where. */
function stagingWriter(out: string, staging: string): SiteWriter {
  const folders = new Set<string>();
  const place = async (name: string): Promise<string> => {
    const file = path.join(staging, ...name.split("/"));
    const folder = path.dirname(file);
    if (!folders.has(folder)) {
      await mkdir(folder, { recursive: true });
      folders.add(folder);
    }
    return file;
  };
  return {
    write: (name, content) =>
      unwritable(out, async () => writeFile(await place(name), content)),
    async copyChecked(name, from, sha256) {
      const file = await unwritable(out, async () => {
        const to = await place(name);
        await copyFile(from, to);
        return to;
      });
      if ((await sha256Of(file)) !== sha256)
        throw new VipError(ERRORS.REPORT.SITE.MANIFEST_MISMATCH, {
          manifest: "the report",
          file: from,
          problem:
            "the file changed while the report was built; run scores:report again",
        });
    },
  };
}

/** `work`, its failure said as the report's folder being unwritable. */
async function unwritable<T>(out: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    ensureError(error);
    throw new VipError(
      ERRORS.REPORT.SITE.OUT_UNWRITABLE,
      { out, reason: error.message },
      error,
    );
  }
}

/** The sha256 of a file, read as a stream. */
async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file))
    hash.update(chunk as Buffer);
  return hash.digest("hex");
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
