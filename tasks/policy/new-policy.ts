import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

import { ensureNodeErrnoExceptionError } from "@nomicfoundation/hardhat-utils/error";
import { exists } from "@nomicfoundation/hardhat-utils/fs";

import { packageFile } from "../config/package-files.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { field, type Output } from "../output.js";
import { parsePolicy } from "./parse.js";

/** What scores:new-policy is asked for. */
export interface NewPolicyRequest {
  /** The family: an example's file name without `.sql`. */
  template: string;
  out: string;
  name?: string;
  fromStage?: string;
}

/** Where the cookbook's examples ship: policies/examples/ in the package. */
async function examplesFolder(): Promise<string> {
  return packageFile("policies", "examples");
}

/** The cookbook's families: its examples' file names without `.sql`, sorted. */
async function templateFamilies(): Promise<string[]> {
  return (await readdir(await examplesFolder()))
    .filter((name) => name.endsWith(".sql"))
    .map((name) => name.slice(0, -".sql".length))
    .sort();
}

const POLICY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Writes a copy of a family's example to `out` with its `@policy` and
 * `@from-stage` lines set; its SQL, its words and its formula unchanged.
 * Everything is checked before anything is written, and the copy parses as
 * a policy; an existing file is never overwritten.
 */
export async function writeNewPolicy(
  request: NewPolicyRequest,
  out: Output,
): Promise<void> {
  const families = await templateFamilies();
  if (!families.includes(request.template))
    throw new VipError(ERRORS.SCORING.NEW_POLICY.NEW_POLICY_UNKNOWN_FAMILY, {
      family: request.template,
      families: families.join(", "),
    });
  const name = request.name ?? path.basename(request.out, ".sql");
  if (!POLICY_NAME.test(name))
    throw new VipError(ERRORS.SCORING.NEW_POLICY.NEW_POLICY_NAME, {
      source:
        request.name === undefined ? "--out's file name, the name," : "--name",
      name,
    });
  const fromStage = stageNumber(request.fromStage ?? "1");
  if (await exists(request.out))
    throw new VipError(ERRORS.SCORING.NEW_POLICY.NEW_POLICY_EXISTS, {
      file: request.out,
    });
  const example = await readFile(
    path.join(await examplesFolder(), `${request.template}.sql`),
    "utf8",
  );
  const text = example
    .replace(/^--\s*@policy\s.*$/m, `-- @policy ${name}`)
    .replace(/^--\s*@from-stage\s.*$/m, `-- @from-stage ${fromStage}`);
  const policy = parsePolicy(request.out, text);
  await mkdir(path.dirname(request.out), { recursive: true });
  try {
    // `wx`: a file made meanwhile is refused too, never replaced.
    await writeFile(request.out, text, { flag: "wx" });
  } catch (error) {
    ensureNodeErrnoExceptionError(error);
    if (error.code === "EEXIST")
      throw new VipError(ERRORS.SCORING.NEW_POLICY.NEW_POLICY_EXISTS, {
        file: request.out,
      });
    throw error;
  }
  out.line(field("wrote", `${request.out} (from ${request.template})`));
  out.line(field("policy", `${policy.name}, from stage ${policy.fromStage}`));
  for (const source of policy.sources)
    out.line(
      field(
        `source ${source.table}`,
        `${source.address} (a placeholder) ${source.event.format("full").replace(/^event /, "")}`,
      ),
    );
  out.line(
    "Next: put your contracts' addresses (and from-block) on the @source lines and adapt the " +
      "constants the header describes; then check it with no network " +
      `(npx hardhat scores:check --policy ${request.out}) and try it over a window ` +
      `(npx hardhat scores:compute --network <name> --policy ${request.out} --window last-14d --out trial/)`,
  );
}

/** `--from-stage`'s value, a stage number. */
function stageNumber(raw: string): bigint {
  const value = raw.trim();
  if (
    !/^\d+$/.test(value) ||
    BigInt(value) === 0n ||
    BigInt(value) >= 2n ** 64n
  )
    throw new VipError(ERRORS.SCORING.NEW_POLICY.NEW_POLICY_FROM_STAGE, {
      value: raw,
    });
  return BigInt(value);
}
