import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";

import { ensureNodeErrnoExceptionError } from "@nomicfoundation/hardhat-utils/error";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";

/** The project folder the rehearsal writes into, and nothing outside it. */
const REHEARSAL_FOLDER = "vip-rehearsal";
/** The file that says the rehearsal made the folder, so may empty it. */
const MARKER = ".vip-rehearsal";

/**
 * Where each part of the rehearsal writes, all under one folder of the
 * project, so that every path it prints still exists after it ends.
 */
export interface RehearsalFolders {
  root: string;
  /** Journals of pushes, finalizations, corrections and transfers; the autopilot's status. */
  journal: string;
  /** The scratch registry checkout registry:entry writes into. */
  registry: string;
  /** proposal:whitelist's proposal.json. */
  whitelist: string;
  /** The sample policy, its @source pointed at the rehearsal's TradeLog. */
  policy: string;
  /** Every stage's score files (and manifests), which the report reads. */
  scores: string;
  /** The activity indexes, one folder per step that scores. */
  index: string;
  /** The wrong stage's file, the new contract's deployment, the proposal. */
  correction: string;
  /** The site scores:report writes. */
  report: string;
}

/**
 * The rehearsal's folder in `projectRoot`, emptied and made again, so that a
 * rerun ends in the same state as the first run (its journals would
 * otherwise resume the last run's stages on a new in-process chain). Only
 * a folder an earlier run made (it holds the marker) or an empty one is
 * emptied: someone's files under that name are refused, never deleted.
 */
export async function freshRehearsalFolders(
  projectRoot: string,
): Promise<RehearsalFolders> {
  const root = path.join(projectRoot, REHEARSAL_FOLDER);
  await refuseOthersFiles(root);
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  await writeFile(
    path.join(root, MARKER),
    "npx hardhat rehearse made this folder and empties it on each run.\n",
  );
  const folders: RehearsalFolders = {
    root,
    journal: path.join(root, "journal"),
    registry: path.join(root, "registry"),
    whitelist: path.join(root, "whitelist"),
    policy: path.join(root, "policy"),
    scores: path.join(root, "scores"),
    index: path.join(root, "index"),
    correction: path.join(root, "correction"),
    report: path.join(root, "report"),
  };
  // The report's folder is left to scores:report, which makes it itself.
  const { journal, registry, whitelist, policy, scores, index, correction } =
    folders;
  for (const dir of [
    journal,
    registry,
    whitelist,
    policy,
    scores,
    index,
    correction,
  ])
    await mkdir(dir, { recursive: true });
  return folders;
}

/** Refuses a non-empty folder without the marker: not the rehearsal's. */
async function refuseOthersFiles(root: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(root);
  } catch (error) {
    ensureNodeErrnoExceptionError(error);
    if (error.code === "ENOENT") return;
    throw error;
  }
  if (entries.length > 0 && !entries.includes(MARKER))
    throw new VipError(ERRORS.REHEARSE.GENERAL.FOLDER_NOT_REHEARSALS, {
      folder: root,
      marker: MARKER,
    });
}
