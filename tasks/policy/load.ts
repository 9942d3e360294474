import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";

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
    throw new VipError(`--policy ${fileOrDir}: no such file or folder`);
  }
  if (files.length === 0)
    throw new VipError(`--policy ${fileOrDir}: the folder holds no .sql file`);
  const policies: Policy[] = [];
  for (const file of files)
    policies.push(parsePolicy(file, await readFile(file, "utf8")));
  const byStage = new Map<bigint, Policy>();
  for (const policy of policies) {
    const other = byStage.get(policy.fromStage);
    if (other !== undefined)
      throw new VipError(
        `${policy.file} and ${other.file} both start at stage ${policy.fromStage}: give each policy its own @from-stage`,
      );
    byStage.set(policy.fromStage, policy);
  }
  return policies;
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
    throw new VipError(
      `no policy applies to stage ${stage}: the earliest starts at stage ${policies
        .map((p) => p.fromStage)
        .reduce((a, b) => (a < b ? a : b))}`,
    );
  return chosen;
}
