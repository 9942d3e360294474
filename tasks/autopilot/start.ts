import { setTimeout as delay } from "node:timers/promises";

import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { baseChain } from "../config/settings.js";
import { type ContractContext, contractContext } from "../contract/context.js";
import { isVipError, reasonOf } from "../errors.js";
import { isTransient } from "../network/retry.js";
import { consoleOutput, type Output } from "../output.js";
import { type AlertSink, alertSink } from "./alerts.js";
import type { Watchers } from "./context.js";
import { type AutopilotLock, acquireLock, lockPath } from "./lock.js";
import { AutopilotMonitor } from "./monitor.js";
import { backoffSeconds } from "./schedule.js";
import { startService } from "./service.js";
import { type AutopilotArgs, readSettings } from "./settings.js";
import { runUnderLock, type StartedContext } from "./under-lock.js";

/**
 * `stage:autopilot`, from its options to its end: the settings checked before
 * anything is reached, the log, alerts and service, the contract (waited for
 * while unreachable), the lock of its journal folder, then the passes until
 * `signal` aborts (or SIGINT / SIGTERM, which give the lock back and exit as a
 * SIGKILL would leave it: every send is journalled).
 */
export async function startAutopilot(
  hre: HardhatRuntimeEnvironment,
  args: AutopilotArgs,
  signal?: AbortSignal,
): Promise<void> {
  const settings = await readSettings(args, hre);
  const watchers = await startWatchers(args, settings.webhookUrl);
  try {
    const context = await startUp(
      () => contractContext(hre, args),
      args.once,
      settings.pollSeconds,
      watchers.alerts,
      signal,
    );
    const base = await baseChain(
      context.connection.networkName,
      context.connection.networkConfig,
    );
    const contract = await context.score.getAddress();
    const lock = await acquireLock(
      lockPath(settings.journalDir, context.chainId, contract),
      contract,
    );
    await holdingLock(lock, (stop) =>
      runUnderLock(
        hre,
        args,
        settings,
        watchers,
        { ...context, base },
        anySignal(stop, signal),
      ),
    );
  } finally {
    await watchers.service?.close();
  }
}

/**
 * The log, the alerts and, with --listen, the service: listening before the
 * rollup is reached, so a service that waits for it is watched while it waits.
 */
async function startWatchers(
  args: AutopilotArgs,
  webhookUrl: string | undefined,
): Promise<Watchers> {
  const out = stamped(consoleOutput);
  const monitor =
    args.listen === undefined ? undefined : new AutopilotMonitor();
  const alerts = alertSink({
    webhookUrl,
    write: (line, level) => {
      monitor?.alerted(level);
      if (level === "ok") out.line(line);
      else out.warn(line);
    },
  });
  const service =
    args.listen === undefined || monitor === undefined
      ? undefined
      : await startService(args.listen, monitor);
  return { out, alerts, monitor, service };
}

/**
 * Runs `work` holding the lock. Killed by a signal, it leaves the way a
 * SIGKILL would (every send is journalled), but gives its lock back; `work`'s
 * own signal is aborted first, for what it holds open.
 */
async function holdingLock(
  lock: AutopilotLock,
  work: (stop: AbortSignal) => Promise<void>,
): Promise<void> {
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    stop.abort();
    void lock
      .release()
      .finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    await work(stop.signal);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await lock.release();
  }
}

/** A signal that aborts when either does. */
function anySignal(a: AbortSignal, b?: AbortSignal): AbortSignal {
  return b === undefined ? a : AbortSignal.any([a, b]);
}

/**
 * The contract and its signer. A rollup that cannot be reached is waited for,
 * with backoff and an alert (a service restarting in a loop would alert
 * nobody); with --once, or for anything a retry cannot mend (no key, no
 * contract at the address), the alert goes out and the run fails.
 */
async function startUp(
  open: () => Promise<ContractContext>,
  once: boolean,
  pollSeconds: number,
  alerts: AlertSink,
  signal?: AbortSignal,
): Promise<StartedContext> {
  for (let attempt = 1; ; attempt++) {
    try {
      const context = await open();
      return {
        ...context,
        chainId: (await context.connection.ethers.provider.getNetwork())
          .chainId,
      };
    } catch (error) {
      const retrying = !once && signal?.aborted !== true && isTransient(error);
      // Stage 0: which stage is at stake is not known before the contract is
      // reached.
      if (attempt === 1 || attempt % 10 === 0 || !retrying) {
        const then = retrying ? "; retrying with backoff" : "";
        alerts.raise(
          retrying ? "warning" : "alert",
          0n,
          `the autopilot cannot start: ${reasonOf(error)}${then}`,
          isVipError(error) ? error.code : undefined,
        );
      }
      if (!retrying) {
        await alerts.drain(15_000);
        throw error;
      }
      // Stopped while waiting: the next attempt's failure ends it.
      await delay(backoffSeconds(attempt, pollSeconds) * 1000, undefined, {
        signal,
      }).catch(() => undefined);
    }
  }
}

/** Lines with the time in front: an autopilot's output is read as a log. */
function stamped(out: Output): Output {
  const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
  return {
    line: (text) => out.line(`${now()} ${text}`),
    warn: (text) => out.warn(`${now()} ${text}`),
  };
}
