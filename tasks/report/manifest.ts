import { readFile } from "node:fs/promises";

import { ensureError } from "@nomicfoundation/hardhat-utils/error";
import { z } from "zod";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";

const DECIMAL = z.string().regex(/^\d+$/, "a decimal number");
const SHA256 = z.string().regex(/^[0-9a-f]{64}$/, "64 lowercase hex digits");
/** A file's own name: no folder, nothing hidden, so nothing outside is read. */
const FILE_NAME = z
  .string()
  .regex(/^[A-Za-z0-9_][A-Za-z0-9._-]*$/, "a file name without a folder");

const BLOCK = z.object({ number: DECIMAL, hash: z.string() });

/** What a challenger checks first: each source's logs, counted and digested. */
const SOURCE = z.object({
  table: z.string(),
  address: z.string(),
  event: z.string(),
  logs: z.number().int().nonnegative(),
  sha256: SHA256,
});

/**
 * What the report reads of a manifest; the rest is copied as it is. The
 * blocks and sources are shown when present (a manifest written before
 * they were is still read).
 */
const MANIFEST = z.object({
  stage: DECIMAL,
  final: z.boolean(),
  policy: z.object({
    name: z.string(),
    file: FILE_NAME,
    fromStage: DECIMAL,
    sha256: SHA256,
  }),
  window: z.object({ start: DECIMAL, end: DECIMAL }),
  blocks: z
    .object({ first: BLOCK.nullable(), last: BLOCK, rule: z.string() })
    .optional(),
  sources: z.array(SOURCE).optional(),
  output: z.object({
    file: FILE_NAME,
    sha256: SHA256,
    addresses: z.number().int().nonnegative(),
    total: DECIMAL,
  }),
});

/** The part of a stage's manifest the report shows and checks. */
export type ReportManifest = z.infer<typeof MANIFEST>;

/** A manifest as read: what it says, and its bytes, which the site publishes. */
export interface ReadManifest {
  value: ReportManifest;
  bytes: Buffer;
}

/**
 * The manifest at `file`, or undefined when there is none; refused, naming
 * the file and the field, when it is not JSON or lacks what the report shows.
 * Its bytes are kept, so the site publishes the very file it checked.
 */
export async function readManifest(
  file: string,
): Promise<ReadManifest | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    ensureError(error);
    if ("code" in error && error.code === "ENOENT") return undefined;
    throw new VipError(ERRORS.REPORT.SITE.MANIFEST_UNREADABLE, {
      file,
      problem: error.message,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    ensureError(error);
    throw new VipError(ERRORS.REPORT.SITE.MANIFEST_UNREADABLE, {
      file,
      problem: `not JSON (${error.message})`,
    });
  }
  const parsed = MANIFEST.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? "" : issue.path.join(".");
    throw new VipError(ERRORS.REPORT.SITE.MANIFEST_UNREADABLE, {
      file,
      problem: `${where === "" ? "the document" : where}: ${issue?.message ?? "invalid"}`,
    });
  }
  return { value: parsed.data, bytes };
}
