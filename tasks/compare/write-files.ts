import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, rmdir, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { safeText } from "../output.js";

/** A file of the comparison: its name in `--out`, its text whole or in chunks. */
export interface ComparisonFile {
  name: string;
  content: string | Iterable<string>;
}

/**
 * Refuses an `--out` that is a file, before anything is read: the
 * comparison is a folder.
 */
export async function refuseOutFile(out: string): Promise<void> {
  const found = await stat(out).catch(() => undefined);
  if (found !== undefined && !found.isDirectory())
    throw new VipError(ERRORS.REPORT.COMPARE.COMPARE_OUT_IS_FILE, { out });
}

/**
 * Writes every file beside its place in `out` (a temporary name each),
 * then renames each into place: a run that fails writing leaves no file of
 * its own behind (and no `out` it made), and a reader never sees half a
 * file. A CSV in chunks is streamed, never one string. Returns the paths.
 */
export async function writeComparisonFiles(
  out: string,
  files: ComparisonFile[],
): Promise<string[]> {
  const made = (await stat(out).catch(() => undefined)) === undefined;
  const temporaries: string[] = [];
  try {
    await mkdir(out, { recursive: true });
    for (const file of files) {
      const temporary = path.join(out, `.${file.name}.${process.pid}.tmp`);
      temporaries.push(temporary);
      await writeContent(temporary, file.content);
    }
    const paths = files.map((file) => path.join(out, file.name));
    for (const [i, temporary] of temporaries.entries())
      await rename(temporary, paths[i] as string);
    return paths;
  } catch (error) {
    await Promise.all(temporaries.map((t) => rm(t, { force: true })));
    if (made) await rmdir(out).catch(() => undefined);
    throw new VipError(
      ERRORS.REPORT.COMPARE.COMPARE_OUT_UNWRITABLE,
      {
        out,
        reason: safeText(
          error instanceof Error ? error.message : String(error),
        ),
      },
      error,
    );
  }
}

async function writeContent(
  file: string,
  content: string | Iterable<string>,
): Promise<void> {
  const chunks = typeof content === "string" ? [content] : content;
  await pipeline(Readable.from(chunks), createWriteStream(file));
}
