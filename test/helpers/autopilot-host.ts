import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";

import { startFaultProxy, type FaultProxy } from "./fault-proxy.js";
import { type CliResult, spawnHardhat } from "./hardhat-cli.js";
import { startWebhook, type Alert } from "./webhook.js";
import type { AutopilotStatus } from "../../tasks/autopilot/status.js";
import { defined } from "../../tasks/errors.js";
import type { StandInServer } from "../../tasks/stand-ins/server.js";

/**
 * One operator host running `stage:autopilot` as a service would: its own key,
 * its own scores, data and journal folders, its own webhook, and its own way
 * to the rollup's node (a fault proxy, so a test can cut it off or hold its
 * sends). The hosts share nothing but the node and the base chain.
 */
export interface AutopilotHost {
  name: string;
  child: ChildProcess;
  result: Promise<CliResult>;
  proxy: FaultProxy;
  webhook: StandInServer & { alerts: Alert[] };
  scoresDir: string;
  journalDir: string;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Its status file, once written. */
  status(): Promise<AutopilotStatus | undefined>;
  /** Stops it as a service manager does (SIGCONT first if it was stopped). */
  stop(): Promise<CliResult>;
}

export interface HostOptions {
  name: string;
  /** The key it signs with, passed in the environment. */
  key: string;
  /** Seconds for --standby-after; undefined for the primary. */
  standbyAfter?: number;
  policy: string;
  nodeUrl: string;
  baseChainUrl: string;
  contract: string;
  /** Its own folder: scores, data and journals go under it. */
  work: string;
  computeInterval?: number;
}

export async function startHost(options: HostOptions): Promise<AutopilotHost> {
  const home = path.join(options.work, options.name);
  const scoresDir = path.join(home, "scores");
  const journalDir = path.join(home, "journal");
  await mkdir(scoresDir, { recursive: true });
  const [proxy, webhook] = await Promise.all([
    startFaultProxy(options.nodeUrl),
    startWebhook(),
  ]);
  const args = [
    "stage:autopilot",
    "--network",
    "rollup",
    "--contract",
    options.contract,
    "--scores-dir",
    scoresDir,
    "--policy",
    options.policy,
    "--data-dir",
    path.join(home, "data"),
    "--journal-dir",
    journalDir,
    "--webhook",
    webhook.url,
    "--poll-interval",
    "1",
    "--compute-interval",
    String(options.computeInterval ?? 2),
    ...(options.standbyAfter === undefined
      ? []
      : ["--standby-after", String(options.standbyAfter)]),
  ];
  const { child, result } = spawnHardhat(args, {
    JSON_RPC_URL: proxy.url,
    PRIVATE_KEY: options.key,
    L1_REST_URL: options.baseChainUrl,
  });
  let printed = "";
  const collect = (chunk: Buffer) => (printed += chunk.toString());
  defined(child.stdout, "the host's stdout").on("data", collect);
  defined(child.stderr, "the host's stderr").on("data", collect);
  const statusFile = path.join(journalDir, "autopilot", "status.json");
  let stopped: Promise<CliResult> | undefined;
  return {
    name: options.name,
    child,
    result,
    proxy,
    webhook,
    scoresDir,
    journalDir,
    output: () => printed,
    status: async () => {
      if (!existsSync(statusFile)) return undefined;
      try {
        return JSON.parse(
          await readFile(statusFile, "utf8"),
        ) as AutopilotStatus;
      } catch {
        return undefined; // replaced between the check and the read
      }
    },
    stop: () => {
      stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill("SIGCONT");
          child.kill("SIGTERM");
        }
        const done = await result;
        await Promise.all([proxy.close(), webhook.close()]);
        return done;
      })();
      return stopped;
    },
  };
}
