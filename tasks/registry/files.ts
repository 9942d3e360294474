import { access } from "node:fs/promises";
import path from "node:path";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import type { RegistryEntry } from "./entry.js";
import type { EntryFiles, EntryPlace } from "./validate.js";
import { readJsonFile, writeJsonFileAtomically } from "../files/json.js";

/** The three paths of an entry in a registry checkout. */
function entryPaths(
  registryDir: string,
  networkFolder: string,
  chainName: string,
) {
  const folder = path.join(registryDir, networkFolder, chainName);
  return {
    chain: path.join(folder, "chain.json"),
    assetlist: path.join(folder, "assetlist.json"),
    profile: path.join(registryDir, "profiles", `${chainName}.json`),
  };
}

/**
 * Reads an entry from its folder
 * (`<registry>/<mainnets|testnets|devnets>/<chain_name>`); errors name the
 * file.
 */
export async function readEntry(
  dir: string,
): Promise<{ files: EntryFiles; place: EntryPlace }> {
  const folder = path.resolve(dir);
  const place = {
    networkFolder: path.basename(path.dirname(folder)),
    folder: path.basename(folder),
    profileFile: "",
  };
  const paths = entryPaths(
    path.dirname(path.dirname(folder)),
    place.networkFolder,
    place.folder,
  );
  place.profileFile = path.relative(
    path.dirname(path.dirname(folder)),
    paths.profile,
  );
  // Testnet entries of the registry have no profile (mainnet rollups do): a
  // missing one is for the rules to judge.
  const profile = (await access(paths.profile).then(
    () => true,
    () => false,
  ))
    ? await readJson(paths.profile)
    : undefined;
  return {
    files: {
      chain: await readJson(paths.chain),
      assetlist: await readJson(paths.assetlist),
      profile,
    },
    place,
  };
}

/**
 * Writes the entry's three files; existing ones are kept unless `force`. Each
 * file lands whole or not at all.
 */
export async function writeEntry(
  registryDir: string,
  networkFolder: string,
  entry: RegistryEntry,
  force: boolean,
): Promise<string[]> {
  const paths = entryPaths(
    registryDir,
    networkFolder,
    entry.chain.chain_name as string,
  );
  const targets: [string, unknown][] = [
    [paths.chain, entry.chain],
    [paths.assetlist, entry.assetlist],
    [paths.profile, entry.profile],
  ];
  if (!force) {
    for (const [file] of targets) {
      if (
        await access(file).then(
          () => true,
          () => false,
        )
      )
        throw new VipError(ERRORS.REGISTRY.ENTRY.ENTRY_EXISTS, { file });
    }
  }
  for (const [file, content] of targets) {
    await writeJsonFileAtomically(file, content);
  }
  return targets.map(([file]) => file);
}

function readJson(file: string): Promise<unknown> {
  return readJsonFile(file, {
    unreadable: (_reason, cause) =>
      new VipError(
        ERRORS.REGISTRY.ENTRY.ENTRY_FILE_UNREADABLE,
        { file },
        cause,
      ),
    notJson: (reason, cause) =>
      new VipError(
        ERRORS.REGISTRY.ENTRY.ENTRY_FILE_NOT_JSON,
        { file, reason },
        cause,
      ),
  });
}
