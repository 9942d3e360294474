import type { NetworkConfig } from "hardhat/types/config";

import { fetchAbciInfo } from "../clients/cometbft.js";
import { optionalVipUrl } from "../config/settings.js";
import { reasonOf } from "../errors.js";
import { type Output, safeText } from "../output.js";

/**
 * minievm's first release whose JSON-RPC indexes the logs of Cosmos-native
 * transactions (commit 777f2ab, 2025-07): before it, `eth_getLogs` never
 * returns them, so a policy built on logs misses that activity.
 */
const COSMOS_LOGS_SINCE = "v1.1.9";

/**
 * Whether `version` (`v1.2.14`, `v1.0.0-rc.0-kami`) comes before `than`, by
 * semantic versioning: a pre-release comes before its release (`v1.1.9-rc.1`
 * before `v1.1.9`). Undefined when either is not a version.
 */
export function isOlderVersion(
  version: string,
  than: string,
): boolean | undefined {
  const a = parseVersion(version);
  const b = parseVersion(than);
  if (a === undefined || b === undefined) return undefined;
  for (let i = 0; i < 3; i++)
    if ((a.numbers[i] ?? 0) !== (b.numbers[i] ?? 0))
      return (a.numbers[i] ?? 0) < (b.numbers[i] ?? 0);
  // Same release: only a pre-release of it is older than the release (two
  // pre-releases of it are not told apart: no threshold here is one).
  return a.preRelease && !b.preRelease;
}

function parseVersion(
  text: string,
): { numbers: number[]; preRelease: boolean } | undefined {
  const match =
    /^v?(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.exec(
      text.trim(),
    );
  if (match === null) return undefined;
  return {
    numbers: [match[1], match[2], match[3]].map(Number),
    preRelease: match[4] !== undefined,
  };
}

/**
 * Warns, once, when the rollup runs a minievm older than v1.1.9 (its version
 * from CometBFT's `abci_info` at the network's `vip.rollupRpcUrl`). Says
 * nothing when that URL is not configured; one short warning when it is but
 * the version cannot be read. Never fails the command: the version is advice
 * about the logs, not a condition of indexing them.
 */
export async function warnIfOldMinievm(
  networkName: string,
  network: NetworkConfig,
  out: Output,
): Promise<void> {
  let version: string;
  try {
    const url = await optionalVipUrl(networkName, network, "rollupRpcUrl");
    if (url === undefined) return;
    version = (await fetchAbciInfo(url)).version;
  } catch (error) {
    out.warn(
      `could not check the rollup's minievm version: ${safeText(reasonOf(error, "with code"))}`,
    );
    return;
  }
  const older = isOlderVersion(version, COSMOS_LOGS_SINCE);
  if (older === undefined)
    out.warn(
      `could not check the rollup's minievm version: abci_info says "${safeText(version, 80)}"`,
    );
  else if (older)
    out.warn(
      `the rollup runs minievm ${safeText(version, 80)}, older than ${COSMOS_LOGS_SINCE}: ` +
        "its JSON-RPC never indexed logs of Cosmos-native transactions, " +
        "so scores built from its logs miss them; upgrade the node",
    );
}
