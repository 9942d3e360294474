import path from "node:path";

import { findClosestPackageRoot } from "@nomicfoundation/hardhat-utils/package";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

/**
 * A file this package ships (e.g. `scripts/sample-scores.csv`), read from the
 * package's own folder: this repository when it runs from source,
 * `node_modules/hardhat-vip-score` in a project that installed it; never from
 * the user's project root.
 */
export async function packageFile(...segments: string[]): Promise<string> {
  return path.join(await findClosestPackageRoot(import.meta.url), ...segments);
}

/**
 * The user's Ignition folder: Hardhat Ignition's `paths.ignition` where that
 * plugin is loaded, else `ignition/` in the project, where it would put it.
 */
export function ignitionPath(hre: HardhatRuntimeEnvironment): string {
  return (
    (hre.config.paths as { ignition?: string }).ignition ??
    path.join(hre.config.paths.root, "ignition")
  );
}
