import { cliVersion, findOnPath, sameVersion } from "./node-cli.js";
import { type AbciInfo, fetchAbciInfo } from "../clients/cometbft.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { field, type Output } from "../output.js";

const NODE_CLI = "minitiad";

/**
 * Reads the rollup's version (`abci_info`) and, when the node CLI is on PATH,
 * checks that it matches: a CLI of another version can sign transactions the
 * chain rejects.
 */
export async function runVersion(
  rollupRpcUrl: string,
  out: Output,
  searchPath?: string,
): Promise<AbciInfo> {
  const info = await fetchAbciInfo(rollupRpcUrl);
  out.line(field("application", info.application));
  out.line(field("version", info.version));
  out.line(field("block height", info.lastBlockHeight));
  out.line(field("app hash", info.lastBlockAppHash));
  const cli = await findOnPath(NODE_CLI, searchPath);
  if (cli === undefined) {
    out.line(
      `${NODE_CLI} is not on PATH: skipped the CLI version check ` +
        `(install ${NODE_CLI} ${info.version} to manage the rollup's keys)`,
    );
    return info;
  }
  const local = await cliVersion(cli);
  if (!sameVersion(local, info.version)) {
    throw new VipError(ERRORS.CONFIG.TOOLS.NODE_CLI_VERSION_MISMATCH, {
      cli: NODE_CLI,
      path: cli,
      local,
      version: info.version,
    });
  }
  out.line(field(`${NODE_CLI} on PATH`, `${local} (matches)`));
  return info;
}
