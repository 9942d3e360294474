import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { PLUGIN_ID } from "../errors.js";

let root: string | undefined;

/**
 * The folder of this package (its package.json): this repository when it runs from source, or
 * `node_modules/hardhat-vip-score` in a project that installed it. Files the tasks ship with are read from
 * here, never from the user's project root.
 */
function packageRoot(): string {
  if (root !== undefined) return root;
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name ===
        PLUGIN_ID
    )
      return (root = dir);
    if (path.dirname(dir) === dir)
      throw new Error(
        `the ${PLUGIN_ID} package's package.json was not found above ${import.meta.dirname}`,
      );
  }
}

/** A file this package ships (e.g. `scripts/sample-scores.csv`). */
export function packageFile(...segments: string[]): string {
  return path.join(packageRoot(), ...segments);
}

/**
 * The user's Ignition folder: Hardhat Ignition's `paths.ignition` where that plugin is loaded, else
 * `ignition/` in the project, where it would put it.
 */
export function ignitionPath(hre: HardhatRuntimeEnvironment): string {
  return (
    (hre.config.paths as { ignition?: string }).ignition ??
    path.join(hre.config.paths.root, "ignition")
  );
}
