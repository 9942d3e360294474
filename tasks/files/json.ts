import { writeFile } from "node:fs/promises";
import path from "node:path";

import { mkdir, move, writeUtf8File } from "@nomicfoundation/hardhat-utils/fs";

/**
 * Writes `value` as indented JSON to a temporary file beside `file`, then
 * renames it over `file`: a reader (or a run killed half-way) sees the old file
 * or the new one, never half of one. Creates the folder.
 */
export async function writeJsonFileAtomically(
  file: string,
  value: unknown,
): Promise<void> {
  await writeFileAtomically(file, JSON.stringify(value, null, 2) + "\n");
}

/** Writes `text` (or bytes) the same way: the old file or the new one, never half. */
export async function writeFileAtomically(
  file: string,
  text: string | Uint8Array,
): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  if (typeof text === "string") await writeUtf8File(temporary, text);
  else {
    await mkdir(path.dirname(temporary));
    await writeFile(temporary, text);
  }
  await move(temporary, file);
}
