/**
 * `npm run package`: builds the plugin into an npm tarball and prints the
 * tarball's path on its last line.
 *
 * 1. `hardhat build`: the contract's artifacts and the TypeChain bindings the tasks import;
 * 2. `tsc -p tsconfig.build.json`: tasks/, types/ and ignition/modules/ as JavaScript with declarations under
 *    dist/, in the same layout, so every relative import holds;
 * 3. the VipScore artifact into dist/artifacts/, where the Ignition module reads it (no compile in the
 *    user's project);
 * 4. `npm pack` with package.json's `files`.
 */
import { execFileSync } from "node:child_process";
import { copyFile, mkdir, rm } from "node:fs/promises";
import path from "node:path";

import { defined } from "../tasks/errors.js";

const root = path.resolve(import.meta.dirname, "..");
const run = (command: string, args: string[]) =>
  execFileSync(command, args, {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
  });

const hardhat = path.join(
  root,
  "node_modules",
  "hardhat",
  "dist",
  "src",
  "cli.js",
);
run(process.execPath, [hardhat, "build"]);
await rm(path.join(root, "dist"), { recursive: true, force: true });
run(process.execPath, [
  path.join(root, "node_modules", "typescript", "bin", "tsc"),
  "-p",
  "tsconfig.build.json",
]);

const artifact = path.join(
  "artifacts",
  "contracts",
  "VipScore.sol",
  "VipScore.json",
);
await mkdir(path.dirname(path.join(root, "dist", artifact)), {
  recursive: true,
});
await copyFile(path.join(root, artifact), path.join(root, "dist", artifact));

const packed = JSON.parse(
  execFileSync(
    "npm",
    ["pack", "--json", "--pack-destination", path.join(root, "dist")],
    { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  ),
) as { filename: string; files: { path: string }[]; size: number }[];
const tarball = path.join(
  root,
  "dist",
  defined(packed[0], "packed[0]").filename,
);
console.log(
  `packed ${defined(packed[0], "packed[0]").files.length} files, ${defined(packed[0], "packed[0]").size} bytes`,
);
console.log(tarball);
