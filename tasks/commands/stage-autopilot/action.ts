import { stat } from "node:fs/promises";
import path from "node:path";

import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { sleep } from "@nomicfoundation/hardhat-utils/lang";
import { describeEndpoint } from "../../clients/http.js";
import { type AlertSink, alertSink } from "../../autopilot/alerts.js";
import {
  type AutopilotLock,
  acquireLock,
  lockPath,
} from "../../autopilot/lock.js";
import { AutopilotMonitor } from "../../autopilot/monitor.js";
import { runAutopilot } from "../../autopilot/run.js";
import { batchTransport } from "../../indexer/batch.js";
import {
  type PolicyBoundOptions,
  policyBounds,
} from "../../scoring/policy-bounds.js";
import { backoffSeconds } from "../../autopilot/schedule.js";
import { type Service, startService } from "../../autopilot/service.js";
import {
  type BaseChain,
  baseChain,
  optionalAlertWebhook,
  taskFolder,
} from "../../config/settings.js";
import { operatorNetwork } from "../../network/connect.js";
import {
  type ContractContext,
  contractContext,
} from "../../contract/context.js";
import { ERRORS } from "../../error-catalog.js";
import { isVipError, reasonOf, VipError } from "../../errors.js";
import { isTransient } from "../../network/retry.js";
import {
  consoleOutput,
  field,
  formatDuration,
  type Output,
} from "../../output.js";
import { loadPolicies } from "../../policy/load.js";
import { ReportKeeper } from "../../report/keeper.js";
import { checkOut } from "../../report/write-site.js";
import type { Policy } from "../../policy/parse.js";
import type { PolicyScoring } from "../../autopilot/policy-scores.js";
import { announceSigner } from "../../signer/signer.js";

interface AutopilotArgs extends PolicyBoundOptions {
  scoresDir: string;
  policy?: string;
  computeInterval: string;
  dataDir?: string;
  once: boolean;
  pollInterval: string;
  grace: string;
  webhook?: string;
  statusFile?: string;
  listen?: string;
  journalDir?: string;
  contract?: string;
  deploymentId?: string;
  reportDir?: string;
}

/** What the options say, read and checked before anything is reached. */
interface AutopilotSettings {
  scoresDir: string;
  pollSeconds: number;
  computeSeconds: number;
  graceSeconds: bigint;
  /** With --policy: read before anything is reached. */
  policies?: Policy[];
  webhookUrl?: string;
  journalDir: string;
  statusFile: string;
  /** With --report-dir: checked to be a report's folder (or new) before anything is reached. */
  reportDir?: string;
}

/** Where the autopilot reports: its log, its alerts, and `--listen`'s service. */
interface Watchers {
  out: Output;
  alerts: AlertSink;
  monitor?: AutopilotMonitor;
  service?: Service;
}

const action: NewTaskActionFunction<AutopilotArgs> = async (args, hre) => {
  const settings = await readSettings(args, hre);
  const watchers = await startWatchers(args, settings);
  try {
    const context = await startUp(
      () => contractContext(hre, args),
      args.once,
      settings.pollSeconds,
      watchers.alerts,
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
    await holdingLock(lock, () =>
      runUnderLock(hre, args, settings, watchers, { ...context, base }),
    );
  } finally {
    await watchers.service?.close();
  }
};

/**
 * The options, checked, and the settings they name: the policies are read
 * before anything is reached (a bad header never waits on a node), the webhook
 * is --webhook, else the network's vip.alertWebhook (keystore or environment),
 * else VIP_ALERT_WEBHOOK for a config without that setting.
 */
async function readSettings(
  args: AutopilotArgs,
  hre: HardhatRuntimeEnvironment,
): Promise<AutopilotSettings> {
  const scoresDir = path.resolve(args.scoresDir);
  const dir = await stat(scoresDir).catch(() => undefined);
  if (dir?.isDirectory() !== true)
    throw new VipError(ERRORS.AUTOPILOT.SCORES_DIR_NOT_A_FOLDER, {
      dir: scoresDir,
    });
  const pollSeconds = wholeSeconds(args.pollInterval, "--poll-interval", 1);
  const computeSeconds = wholeSeconds(
    args.computeInterval,
    "--compute-interval",
    1,
  );
  const policies =
    args.policy === undefined ? undefined : await loadPolicies(args.policy);
  const graceSeconds = BigInt(wholeSeconds(args.grace, "--grace", 0));
  const webhookUrl = await alertWebhook(args, hre);
  const journalDir = taskFolder(
    hre.config.paths.root,
    "journal",
    args.journalDir,
  );
  const statusFile = path.resolve(
    args.statusFile ?? path.join(journalDir, "autopilot", "status.json"),
  );
  const reportDir =
    args.reportDir === undefined ? undefined : path.resolve(args.reportDir);
  if (reportDir !== undefined) await checkOut(reportDir);
  return {
    scoresDir,
    pollSeconds,
    computeSeconds,
    graceSeconds,
    policies,
    webhookUrl,
    journalDir,
    statusFile,
    ...(reportDir === undefined ? {} : { reportDir }),
  };
}

async function alertWebhook(
  args: AutopilotArgs,
  hre: HardhatRuntimeEnvironment,
): Promise<string | undefined> {
  const selected = operatorNetwork(hre);
  const configured =
    args.webhook === undefined
      ? await optionalAlertWebhook(selected.name, selected.config)
      : undefined;
  return webhook(
    args.webhook ?? configured ?? process.env.VIP_ALERT_WEBHOOK,
    args.webhook !== undefined
      ? "--webhook"
      : configured !== undefined
        ? `vip.alertWebhook of network "${selected.name}"`
        : "VIP_ALERT_WEBHOOK",
  );
}

/**
 * The log, the alerts and, with --listen, the service: listening before the
 * rollup is reached, so a service that waits for it is watched while it waits.
 */
async function startWatchers(
  args: AutopilotArgs,
  settings: AutopilotSettings,
): Promise<Watchers> {
  const out = stamped(consoleOutput);
  const monitor =
    args.listen === undefined ? undefined : new AutopilotMonitor();
  const alerts = alertSink({
    webhookUrl: settings.webhookUrl,
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
 * SIGKILL would (every send is journalled), but gives its lock back.
 */
async function holdingLock(
  lock: AutopilotLock,
  work: () => Promise<void>,
): Promise<void> {
  const onSignal = (signal: NodeJS.Signals) => {
    void lock
      .release()
      .finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    await work();
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await lock.release();
  }
}

/** What the autopilot runs on, what it does, and then its passes. */
async function runUnderLock(
  hre: HardhatRuntimeEnvironment,
  args: AutopilotArgs,
  settings: AutopilotSettings,
  { out, alerts, monitor, service }: Watchers,
  context: StartedContext & { base: BaseChain },
): Promise<void> {
  const { connection, operator, score, chainId } = context;
  const { restUrl: l1RestUrl, moduleAddress } = context.base;
  const { scoresDir, pollSeconds, graceSeconds, webhookUrl } = settings;
  announceSigner(out, operator);
  const contract = await score.getAddress();
  out.line(
    field(
      "contract",
      `${contract} on chain ${chainId} (network "${connection.networkName}")`,
    ),
  );
  out.line(
    field(
      "scores",
      `${scoresDir}/stage-<N>.csv (live) and stage-<N>.final.csv (final)`,
    ),
  );
  const once = args.once ? " (once)" : "";
  out.line(
    field(
      "grace",
      `${formatDuration(graceSeconds)} after a stage's end; ` +
        `poll every ${formatDuration(pollSeconds)}${once}`,
    ),
  );
  out.line(
    field(
      "alerts",
      webhookUrl === undefined
        ? "stderr"
        : `stderr and the webhook at ${describeEndpoint(webhookUrl, "")}`,
    ),
  );
  out.line(field("status", settings.statusFile));
  if (service !== undefined)
    out.line(
      field("listening", `http://${service.address}/healthz and /metrics`),
    );
  const scoring = await policyScoring(hre, args, settings, out, {
    connection,
    chainId,
    l1RestUrl,
    moduleAddress,
  });
  const report = await runAutopilot(
    { score, signer: operator.signer, chainId, out, alerts, monitor },
    {
      scoresDir,
      once: args.once,
      pollSeconds,
      graceSeconds,
      statusFile: settings.statusFile,
      journalDir: settings.journalDir,
      l1RestUrl,
      moduleAddress,
      network: connection.networkName,
      scoring,
      report: reportKeeper(settings, score, scoring),
    },
  );
  await alerts.drain(15_000);
  if (report.blocked !== undefined)
    throw new VipError(
      ERRORS.AUTOPILOT.STAGE_LEFT_UNDONE,
      { reason: report.blocked.text },
      report.blocked.error,
    );
  out.line(
    field(
      "done",
      report.finalized.length === 0
        ? "nothing was due"
        : `finalized stage(s) ${report.finalized.join(", ")}`,
    ),
  );
}

/** With --report-dir: the report of the stages, kept current by the passes. */
function reportKeeper(
  { reportDir, scoresDir }: AutopilotSettings,
  score: ContractContext["score"],
  scoring: PolicyScoring | undefined,
): ReportKeeper | undefined {
  if (reportDir === undefined) return undefined;
  return new ReportKeeper({
    scoresDir,
    out: reportDir,
    policy: scoring?.policyPath ?? scoresDir,
    finalizedOnChain: async (stage) => (await score.stages(stage)).isFinalized,
  });
}

/** With --policy: how the autopilot computes the score files, announced. */
async function policyScoring(
  hre: HardhatRuntimeEnvironment,
  args: AutopilotArgs,
  { policies, scoresDir, computeSeconds }: AutopilotSettings,
  out: Output,
  where: {
    connection: ContractContext["connection"];
    chainId: bigint;
    l1RestUrl: string;
    moduleAddress: string;
  },
): Promise<PolicyScoring | undefined> {
  if (args.policy === undefined || policies === undefined) return undefined;
  const { connection } = where;
  const scoring: PolicyScoring = {
    policyPath: args.policy,
    computeIntervalSeconds: computeSeconds,
    activity: {
      provider: connection.provider,
      chainId: where.chainId,
      networkName: connection.networkName,
      dataDir: taskFolder(hre.config.paths.root, "data", args.dataDir),
      policyBounds: policyBounds(args, connection.networkConfig),
      l1RestUrl: where.l1RestUrl,
      moduleAddress: where.moduleAddress,
      out,
      batch: await batchTransport(connection.networkConfig),
    },
  };
  const names = policies
    .map((p) => `${p.name} (from stage ${p.fromStage})`)
    .join(", ");
  out.line(
    field(
      "policy",
      `${names}: the autopilot computes ${scoresDir}/stage-<N>.csv every ` +
        `${formatDuration(computeSeconds)} while a stage runs, ` +
        "and stage-<N>.final.csv once it has closed on both clocks",
    ),
  );
  return scoring;
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
      const retrying = !once && isTransient(error);
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
      await sleep(backoffSeconds(attempt, pollSeconds));
    }
  }
}

type StartedContext = ContractContext & { chainId: bigint };

function wholeSeconds(raw: string, option: string, minimum: number): number {
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < minimum)
    throw new VipError(ERRORS.AUTOPILOT.NOT_WHOLE_SECONDS, {
      option,
      value: raw,
      minimum,
    });
  return Number(raw);
}

function webhook(raw: string | undefined, source: string): string | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new VipError(ERRORS.AUTOPILOT.WEBHOOK_NOT_A_URL, { source });
  }
  if (!/^https?:$/.test(url.protocol))
    throw new VipError(ERRORS.AUTOPILOT.WEBHOOK_NOT_HTTP, { source });
  return url.toString();
}

/** Lines with the time in front: an autopilot's output is read as a log. */
function stamped(out: Output): Output {
  const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
  return {
    line: (text) => out.line(`${now()} ${text}`),
    warn: (text) => out.warn(`${now()} ${text}`),
  };
}

export default action;
