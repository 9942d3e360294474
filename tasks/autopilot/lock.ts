import { mkdir, open, readFile, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";

import { ensureNodeErrnoExceptionError } from "@nomicfoundation/hardhat-utils/error";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";

/** Who holds an autopilot lock. */
interface LockOwner {
  pid: number;
  host: string;
  since: string;
  contract: string;
}

export interface AutopilotLock {
  path: string;
  release(): Promise<void>;
}

/** Where the lock of one contract's autopilot lives: beside its journals. */
export function lockPath(
  journalDir: string,
  chainId: bigint,
  contract: string,
): string {
  return path.join(
    journalDir,
    "autopilot",
    `chain-${chainId}`,
    `${contract.toLowerCase()}.lock`,
  );
}

/**
 * Takes the lock of one contract's autopilot, created atomically (`O_EXCL`), so
 * a second autopilot on the same contract refuses at once, naming the first. A
 * lock left by a process that no longer runs on this host (one killed with
 * SIGKILL) is taken over; a lock from another host is never guessed about.
 */
export async function acquireLock(
  file: string,
  contract: string,
): Promise<AutopilotLock> {
  await mkdir(path.dirname(file), { recursive: true });
  const me: LockOwner = {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    contract,
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, "wx");
      try {
        await handle.writeFile(JSON.stringify(me) + "\n");
        await handle.datasync();
      } finally {
        await handle.close();
      }
      return { path: file, release: () => releaseLock(file, me) };
    } catch (error) {
      ensureNodeErrnoExceptionError(error);
      if (error.code !== "EEXIST") throw error;
    }
    const owner = await readOwner(file);
    if (
      owner !== undefined &&
      (owner.host !== me.host || isRunning(owner.pid))
    ) {
      throw new VipError(ERRORS.AUTOPILOT.SETUP.LOCK_HELD, {
        contract,
        pid: owner.pid,
        host: owner.host,
        since: owner.since,
        file,
      });
    }
    // Its owner is dead (or the file is torn): take it over through O_EXCL
    // again. (Two autopilots starting over the same stale lock within the same
    // milliseconds could both pass; a service manager starts one.)
    await unlink(file).catch(() => undefined);
  }
  throw new VipError(ERRORS.AUTOPILOT.SETUP.LOCK_CONTENDED, { file });
}

async function readOwner(file: string): Promise<LockOwner | undefined> {
  try {
    const owner = JSON.parse(
      await readFile(file, "utf8"),
    ) as Partial<LockOwner>;
    if (typeof owner.pid === "number" && typeof owner.host === "string") {
      return {
        pid: owner.pid,
        host: owner.host,
        since: String(owner.since ?? "?"),
        contract: String(owner.contract ?? "?"),
      };
    }
  } catch {
    // Unreadable or torn (a kill mid-write): nobody can be named, so it is
    // stale.
  }
  return undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return error instanceof Error && "code" in error && error.code === "EPERM";
  }
}

/** Removes the lock, only if it is still ours. */
async function releaseLock(file: string, me: LockOwner): Promise<void> {
  const owner = await readOwner(file);
  if (owner?.pid === me.pid && owner.host === me.host)
    await unlink(file).catch(() => undefined);
}
