import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

import { mkdir, move, writeUtf8File } from "@nomicfoundation/hardhat-utils/fs";

import { safeText } from "../output.js";

/** The errors a JSON file the tool reads is refused with, by what went wrong. */
export interface JsonFileErrors {
  /** The file does not exist (otherwise it is `unreadable`). */
  missing?: (cause: unknown) => Error;
  unreadable: (reason: string, cause: unknown) => Error;
  notJson: (reason: string, cause: unknown) => Error;
}

/**
 * The JSON value in `file`, unchecked: a file that is missing, cannot be
 * read, or is not JSON is refused with the caller's own error, its reason
 * (the system's, or the parser's with the position) in its words.
 */
export async function readJsonFile(
  file: string,
  errors: JsonFileErrors,
): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT" && errors.missing !== undefined)
      throw errors.missing(error);
    throw errors.unreadable(reasonText(error), error);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw errors.notJson(reasonText(error), error);
  }
}

/** The system's or the parser's words, printable: the parser's quote the file. */
function reasonText(error: unknown): string {
  return safeText(error instanceof Error ? error.message : String(error), 200);
}

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
