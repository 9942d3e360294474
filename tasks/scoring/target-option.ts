import { parseStage } from "../contract/preflight.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { safeText } from "../output.js";
import type { ScoreTarget } from "./target.js";

/** `--stage`, `--window` and `--stage-number` as a scoring command takes them. */
export interface ScoreTargetOptions {
  stage?: string;
  window?: string;
  stageNumber?: string;
}

const SHORTHAND = /^last-(\d{1,4})([dh])$/;
const UNIT_SECONDS = { d: 86_400, h: 3_600 } as const;
/** A shorthand reaches back at most a year. */
const MOST_SECONDS = 366 * 86_400;
/** `2026-11-01`, `2026-11-01T00:00`, `…:00`, `…:00.000`, with `Z` or `±hh:mm`, or none (UTC). */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * What a scoring command runs over: `--stage N` (a stage of the program), or
 * `--window <start>,<end>` (a trial, the stage column `--stage-number` or
 * null), exactly one of them. Checked before anything is read; `now` (unix
 * seconds) is for the `last-…` shorthands.
 */
export function scoreTargetOf(
  task: string,
  options: ScoreTargetOptions,
  now: number = Math.floor(Date.now() / 1000),
): ScoreTarget {
  const stage = given(options.stage);
  const window = given(options.window);
  const stageNumber = given(options.stageNumber);
  if ((stage === undefined) === (window === undefined))
    throw new VipError(ERRORS.CONFIG.OPTIONS.SCORE_TARGET_MISSING, {
      task,
      problem: stage === undefined ? "neither was given" : "both were given",
    });
  if (stage !== undefined) {
    if (stageNumber !== undefined)
      throw new VipError(ERRORS.CONFIG.OPTIONS.STAGE_NUMBER_WITHOUT_WINDOW, {
        value: safeText(stageNumber, 40),
      });
    return { kind: "stage", stage: parseStage(stage) };
  }
  const [start, end] = parseWindow(window as string, now);
  return {
    kind: "trial",
    start,
    end,
    stageNumber: stageNumber === undefined ? null : parseStage(stageNumber),
  };
}

function given(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

/** `--window`'s `[start, end)`, in unix seconds. */
function parseWindow(value: string, now: number): [bigint, bigint] {
  const invalid = (problem: string): never => {
    throw new VipError(ERRORS.CONFIG.OPTIONS.WINDOW_INVALID, {
      value: safeText(value, 80),
      problem,
    });
  };
  const shorthand = SHORTHAND.exec(value);
  if (shorthand !== null) {
    const unit = UNIT_SECONDS[shorthand[2] as "d" | "h"];
    const span = Number(shorthand[1]) * unit;
    if (span === 0 || span > MOST_SECONDS)
      invalid("a shorthand reaches back 1 hour to 366 days");
    // Whole units before the current one: the same window all day (or
    // hour) long, and already closed on the rollup.
    const end = Math.floor(now / unit) * unit;
    return [BigInt(end - span), BigInt(end)];
  }
  const parts = value.split(",");
  if (parts.length !== 2)
    invalid("give two times, `<start>,<end>`, or a shorthand such as last-14d");
  const [start, end] = parts.map((part, i) =>
    parseTime(part.trim(), i === 0 ? "the start" : "the end", invalid),
  ) as [bigint, bigint];
  if (start < 0n) invalid("the start is before 1970");
  if (end <= start) invalid("the end must come after the start");
  return [start, end];
}

/** One time of `--window`: unix seconds, or ISO 8601 (UTC when it names no zone). */
function parseTime(
  text: string,
  which: string,
  invalid: (problem: string) => never,
): bigint {
  if (/^\d{1,12}$/.test(text)) return BigInt(text);
  const match = ISO.exec(text);
  if (match === null)
    return invalid(
      `${which} is neither unix seconds nor an ISO 8601 time (2026-11-01 or 2026-11-01T00:00:00Z)`,
    );
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  if (fraction !== undefined && !/^0+$/.test(fraction))
    invalid(`${which} has a fraction of a second: windows are whole seconds`);
  const fields = [year, month, day, hour ?? "0", minute ?? "0", second ?? "0"];
  const [y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0] = fields.map(Number);
  const utc = Date.UTC(y, mo - 1, d, h, mi, s);
  const date = new Date(utc);
  // Date.UTC rolls 2026-02-30 over into March: refused instead.
  if (
    date.getUTCFullYear() !== y ||
    date.getUTCMonth() !== mo - 1 ||
    date.getUTCDate() !== d ||
    h > 23 ||
    mi > 59 ||
    s > 59
  )
    invalid(`${which} is not a date and time that exists`);
  const offset = zoneOffsetSeconds(zone);
  if (offset === undefined)
    return invalid(`${which} has a zone offset no zone has (${zone})`);
  return BigInt(utc / 1000 - offset);
}

/**
 * `Z`, `+02:00`, `-0530` or none, as seconds east of UTC; undefined for an
 * offset no zone has (beyond ±14:00, or minutes past 59).
 */
function zoneOffsetSeconds(zone: string | undefined): number | undefined {
  if (zone === undefined || zone.toUpperCase() === "Z") return 0;
  const sign = zone.startsWith("-") ? -1 : 1;
  const digits = zone.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2));
  if (minutes > 59 || hours * 60 + minutes > 14 * 60) return undefined;
  return sign * (hours * 3600 + minutes * 60);
}
