import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { parsePolicy, type Policy } from "./parse.js";

/**
 * The policies in a file or a folder (its `*.sql` files, in name order). Two
 * policies of a folder may not start at the same stage: which one applies
 * would be a guess.
 */
export async function loadPolicies(fileOrDir: string): Promise<Policy[]> {
  let files: string[];
  try {
    files = (await stat(fileOrDir)).isDirectory()
      ? (await readdir(fileOrDir))
          .filter((name) => name.endsWith(".sql"))
          .sort()
          .map((name) => path.join(fileOrDir, name))
      : [fileOrDir];
  } catch {
    throw new VipError(ERRORS.SCORING.POLICY_FILES.POLICY_NOT_FOUND, {
      path: fileOrDir,
    });
  }
  if (files.length === 0)
    throw new VipError(ERRORS.SCORING.POLICY_FILES.POLICY_FOLDER_EMPTY, {
      path: fileOrDir,
    });
  const policies: Policy[] = [];
  for (const file of files)
    policies.push(parsePolicy(file, await readFile(file, "utf8")));
  const byStage = new Map<bigint, Policy>();
  for (const policy of policies) {
    const other = byStage.get(policy.fromStage);
    if (other !== undefined)
      throw new VipError(ERRORS.SCORING.POLICY_FILES.POLICIES_SAME_STAGE, {
        file: policy.file,
        other: other.file,
        stage: policy.fromStage,
      });
    byStage.set(policy.fromStage, policy);
  }
  return policies;
}

/**
 * The policies that score `stage` or a later one: the one in force at
 * `stage`, and every one that takes over after it.
 */
export function policiesFrom(policies: Policy[], stage: bigint): Policy[] {
  const inForce = policyForStage(policies, stage);
  return policies.filter(
    (policy) => policy === inForce || policy.fromStage > stage,
  );
}

/** The policy in force at `stage`: the highest `@from-stage` at or below it. */
export function policyForStage(policies: Policy[], stage: bigint): Policy {
  let chosen: Policy | undefined;
  for (const policy of policies)
    if (
      policy.fromStage <= stage &&
      (chosen === undefined || policy.fromStage > chosen.fromStage)
    )
      chosen = policy;
  if (chosen === undefined)
    throw new VipError(ERRORS.SCORING.POLICY_FILES.NO_POLICY_FOR_STAGE, {
      stage,
      earliest: policies
        .map((p) => p.fromStage)
        .reduce((a, b) => (a < b ? a : b)),
    });
  return chosen;
}
