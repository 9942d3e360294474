import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

import { DEPLOYER_KEY, LEDGER_KEY, OUTSIDER_KEY } from "./keys.js";
import { defined } from "../../tasks/errors.js";

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");
/**
 * Hardhat's CLI entry (the package's exports do not expose it to
 * `require.resolve`).
 */
export const HARDHAT_CLI = path.join(
  PROJECT_ROOT,
  "node_modules",
  "hardhat",
  "dist",
  "src",
  "cli.js",
);

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr together, for assertions that do not care which. */
  output: string;
}

/**
 * Runs `hardhat <args>` in a child process, as an operator would, with only
 * `env` added to a clean environment. Every run is checked for leaked keys:
 * none of the test keys may appear in its output.
 */
export interface CliOptions {
  nodeOptions?: string;
  /**
   * Another Hardhat project to run in (its own `node_modules/hardhat`), e.g.
   * one that installed the package.
   */
  cwd?: string;
}

export async function runHardhat(
  args: string[],
  env: Record<string, string | undefined> = {},
  options: CliOptions = {},
): Promise<CliResult> {
  return spawnHardhat(args, env, options).result;
}

/**
 * Like `runHardhat`, but hands back the child process too, for a test that
 * kills it midway.
 */
export function spawnHardhat(
  args: string[],
  env: Record<string, string | undefined> = {},
  options: CliOptions = {},
): { child: ChildProcess; result: Promise<CliResult> } {
  const childEnv: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) {
    if (process.env[name] !== undefined)
      childEnv[name] = defined(process.env[name], "process.env[name]");
  }
  for (const [name, value] of Object.entries(env))
    if (value !== undefined) childEnv[name] = value;
  if (options.nodeOptions !== undefined)
    childEnv.NODE_OPTIONS = options.nodeOptions;
  // In this project, Typechain would rewrite types/ while other runs read them;
  // another project has no Typechain.
  const child =
    options.cwd === undefined
      ? spawn(process.execPath, [HARDHAT_CLI, ...args, "--no-typechain"], {
          cwd: PROJECT_ROOT,
          env: childEnv,
        })
      : spawn(
          process.execPath,
          [
            path.join(
              options.cwd,
              "node_modules",
              "hardhat",
              "dist",
              "src",
              "cli.js",
            ),
            ...args,
          ],
          { cwd: options.cwd, env: childEnv },
        );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const result = new Promise<number | null>((resolve) =>
    child.on("close", resolve),
  ).then((code) => {
    const output = stdout + stderr;
    for (const key of [DEPLOYER_KEY, LEDGER_KEY, OUTSIDER_KEY]) {
      if (output.toLowerCase().includes(key.slice(2).toLowerCase())) {
        throw new Error(`hardhat ${args.join(" ")} printed a private key`);
      }
    }
    return { code, stdout, stderr, output };
  });
  return { child, result };
}
