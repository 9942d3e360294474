import { access } from "node:fs/promises";
import { extname } from "node:path";

import { VipError } from "../errors.js";
import { EntryCollector, type ScoreEntry, type ScoreProblem } from "./entry.js";
import { collectCsv } from "./parse-csv.js";
import { collectJson } from "./parse-json.js";

const SHOWN_PROBLEMS = 20;

/** A score file that failed validation; lists every problem (up to 20) as `file:line: message`. */
export class ScoreFileError extends VipError {
  constructor(
    readonly file: string,
    readonly problems: ScoreProblem[],
  ) {
    const shown = problems.slice(0, SHOWN_PROBLEMS).map((p) => `  ${file}:${p.line}: ${p.message}`);
    const more = problems.length > SHOWN_PROBLEMS ? [`  … and ${problems.length - SHOWN_PROBLEMS} more`] : [];
    super(`${file} has ${problems.length} problem(s); nothing was sent:\n${[...shown, ...more].join("\n")}`);
  }
}

/**
 * Reads and validates a whole score file (`.json`: JSON array; anything else: CSV with a header) before
 * anything is sent. Throws `ScoreFileError` listing every problem with its line.
 */
export async function readScoreFile(file: string): Promise<ScoreEntry[]> {
  try {
    await access(file);
  } catch {
    throw new VipError(`cannot read the score file ${file}: it does not exist or is not readable`);
  }
  const collector = new EntryCollector();
  if (extname(file).toLowerCase() === ".json") await collectJson(file, collector);
  else await collectCsv(file, collector);
  if (collector.problems.length === 0 && collector.entries.length === 0) {
    collector.problem(1, "the file holds no scores");
  }
  if (collector.problems.length > 0) throw new ScoreFileError(file, collector.problems);
  return collector.entries;
}
