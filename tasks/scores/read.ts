import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { extname } from "node:path";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { EntryCollector, type ScoreProblem } from "./entry.js";
import { collectCsv } from "./parse-csv.js";
import { collectJson } from "./parse-json.js";
import type { ScoreTable } from "./table.js";

const SHOWN_PROBLEMS = 20;

/** A validated score file. */
export interface ScoreFile {
  path: string;
  table: ScoreTable;
  /** SHA-256 of the file's bytes: what the journal calls the input. */
  sha256: string;
}

/**
 * A score file that failed validation; lists the first 20 problems as
 * `file:line: message`, and the count.
 */
export class ScoreFileError extends VipError<
  typeof ERRORS.SCORES.FILE.INVALID_FILE
> {
  constructor(
    readonly file: string,
    readonly problems: ScoreProblem[],
    readonly problemCount: number,
  ) {
    const shown = problems
      .slice(0, SHOWN_PROBLEMS)
      .map((p) => `  ${file}:${p.line}: ${p.message}`);
    const more =
      problemCount > SHOWN_PROBLEMS
        ? [`  … and ${problemCount - SHOWN_PROBLEMS} more`]
        : [];
    super(ERRORS.SCORES.FILE.INVALID_FILE, {
      file,
      count: problemCount,
      problems: [...shown, ...more].join("\n"),
    });
  }
}

export interface ReadOptions {
  /**
   * Accept a file that holds no scores (a header alone, or `[]`): a stage
   * nobody scored in must still be finalized. A file with no bytes at all is
   * still refused: it is more likely a write that never happened.
   */
  allowEmpty?: boolean;
}

/**
 * Reads and validates a whole score file (`.json`: JSON array; anything else:
 * CSV with a header) before anything is sent. Throws `ScoreFileError` listing
 * the problems with their lines.
 */
export async function readScoreFile(
  file: string,
  options: ReadOptions = {},
): Promise<ScoreFile> {
  let size: number;
  try {
    await access(file, constants.R_OK);
    size = (await stat(file)).size;
  } catch {
    throw new VipError(ERRORS.SCORES.FILE.FILE_UNREADABLE, { file });
  }
  const collector = new EntryCollector();
  const sha256 =
    extname(file).toLowerCase() === ".json"
      ? await collectJson(file, collector)
      : await collectCsv(file, collector);
  if (
    collector.problemCount === 0 &&
    collector.table.length === 0 &&
    (options.allowEmpty !== true || size === 0)
  ) {
    collector.problem(
      1,
      options.allowEmpty === true
        ? "the file is empty (a stage with no scores is the header line alone)"
        : "the file holds no scores",
    );
  }
  if (collector.problemCount > 0)
    throw new ScoreFileError(file, collector.problems, collector.problemCount);
  return { path: file, table: collector.table, sha256 };
}
