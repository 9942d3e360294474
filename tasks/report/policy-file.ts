import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import type { ReportManifest } from "./manifest.js";

/** The policy a stage was computed under, as its page shows it. */
export interface PolicyText {
  path: string;
  /** The file's bytes: copied beside the pages and hashed as they are. */
  bytes: Buffer;
  sql: string;
}

/**
 * The policy the manifest names, from `policyPath` (a policy file, or the
 * folder holding it by the manifest's name), checked against the manifest's
 * sha256: a page never shows SQL the stage was not computed with.
 */
export async function readPolicyText(
  policyPath: string,
  manifest: ReportManifest,
  manifestPath: string,
): Promise<PolicyText> {
  const named = manifest.policy.file;
  const isFile = await stat(policyPath).then(
    (stats) => stats.isFile(),
    () => false,
  );
  const file = isFile ? policyPath : path.join(policyPath, named);
  const notFound = (): VipError =>
    new VipError(ERRORS.REPORT.SITE.POLICY_NOT_FOUND, {
      manifest: manifestPath,
      policy: named,
      dir: policyPath,
    });
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    throw notFound();
  }
  const actual = createHash("sha256").update(bytes).digest("hex");
  if (actual !== manifest.policy.sha256) {
    if (isFile && path.basename(file) !== named) throw notFound();
    throw new VipError(ERRORS.REPORT.SITE.POLICY_MISMATCH, {
      file,
      actual,
      manifest: manifestPath,
      expected: manifest.policy.sha256,
    });
  }
  return { path: file, bytes, sql: bytes.toString("utf8") };
}
