import { stat } from "node:fs/promises";
import path from "node:path";

import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { sleep } from "@nomicfoundation/hardhat-utils/lang";
import { describeEndpoint } from "../../clients/http.js";
import { type AlertSink, alertSink } from "../../autopilot/alerts.js";
import { acquireLock, lockPath } from "../../autopilot/lock.js";
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
  baseChain,
  optionalAlertWebhook,
  taskFolder,
} from "../../config/settings.js";
import { operatorNetwork } from "../../network/connect.js";
import {
  type ContractContext,
  contractContext,
} from "../../contract/context.js";
import { firstLine, VipError } from "../../errors.js";
import { isTransient } from "../../network/retry.js";
import {
  consoleOutput,
  field,
  formatDuration,
  type Output,
} from "../../output.js";
import { loadPolicies } from "../../policy/load.js";
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
}

const action: NewTaskActionFunction<AutopilotArgs> = async (args, hre) => {
  const scoresDir = path.resolve(args.scoresDir);
  const dir = await stat(scoresDir).catch(() => undefined);
  if (dir?.isDirectory() !== true)
    throw new VipError(
      `--scores-dir ${scoresDir} is not a folder: create it, or point it at the scoring job's output`,
    );
  const pollSeconds = wholeSeconds(args.pollInterval, "--poll-interval", 1);
  const computeSeconds = wholeSeconds(
    args.computeInterval,
    "--compute-interval",
    1,
  );
  // The policies are read before anything is reached: a bad header never
  // waits on a node.
  const policies =
    args.policy === undefined ? undefined : await loadPolicies(args.policy);
  const graceSeconds = BigInt(wholeSeconds(args.grace, "--grace", 0));
  // --webhook, else the network's vip.alertWebhook (keystore or environment),
  // else VIP_ALERT_WEBHOOK for a config without that setting.
  const selected = operatorNetwork(hre);
  const configured =
    args.webhook === undefined
      ? await optionalAlertWebhook(selected.name, selected.config)
      : undefined;
  const webhookUrl = webhook(
    args.webhook ?? configured ?? process.env.VIP_ALERT_WEBHOOK,
    args.webhook !== undefined
      ? "--webhook"
      : configured !== undefined
        ? `vip.alertWebhook of network "${selected.name}"`
        : "VIP_ALERT_WEBHOOK",
  );
  const journalDir = taskFolder(
    hre.config.paths.root,
    "journal",
    args.journalDir,
  );
  const statusFile = path.resolve(
    args.statusFile ?? path.join(journalDir, "autopilot", "status.json"),
  );

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
  // Listening before the rollup is reached: a service that waits for it is
  // watched while it waits.
  const service: Service | undefined =
    args.listen === undefined || monitor === undefined
      ? undefined
      : await startService(args.listen, monitor);
  try {
    const { connection, operator, score, chainId } = await startUp(
      () => contractContext(hre, args),
      args.once,
      pollSeconds,
      alerts,
    );
    const { restUrl: l1RestUrl, moduleAddress } = await baseChain(
      connection.networkName,
      connection.networkConfig,
    );
    const contract = await score.getAddress();
    const lock = await acquireLock(
      lockPath(journalDir, chainId, contract),
      contract,
    );

    // Killed by a signal, it leaves the way a SIGKILL would (every send is
    // journalled), but gives its lock back.
    const onSignal = (signal: NodeJS.Signals) => {
      void lock
        .release()
        .finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
    };
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    try {
      announceSigner(out, operator);
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
      out.line(
        field(
          "grace",
          `${formatDuration(graceSeconds)} after a stage's end; poll every ${formatDuration(pollSeconds)}${args.once ? " (once)" : ""}`,
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
      out.line(field("status", statusFile));
      if (service !== undefined)
        out.line(
          field("listening", `http://${service.address}/healthz and /metrics`),
        );
      const scoring =
        args.policy === undefined || policies === undefined
          ? undefined
          : {
              policyPath: args.policy,
              computeIntervalSeconds: computeSeconds,
              activity: {
                provider: connection.provider,
                chainId,
                networkName: connection.networkName,
                dataDir: taskFolder(
                  hre.config.paths.root,
                  "data",
                  args.dataDir,
                ),
                policyBounds: policyBounds(args, connection.networkConfig),
                l1RestUrl,
                moduleAddress,
                out,
                batch: await batchTransport(connection.networkConfig),
              },
            };
      if (scoring !== undefined)
        out.line(
          field(
            "policy",
            `${policies?.map((p) => `${p.name} (from stage ${p.fromStage})`).join(", ")}: the autopilot computes ${scoresDir}/stage-<N>.csv every ${formatDuration(computeSeconds)} while a stage runs, and stage-<N>.final.csv once it has closed on both clocks`,
          ),
        );
      const report = await runAutopilot(
        { score, signer: operator.signer, chainId, out, alerts, monitor },
        {
          scoresDir,
          once: args.once,
          pollSeconds,
          graceSeconds,
          statusFile,
          journalDir,
          l1RestUrl,
          moduleAddress,
          network: connection.networkName,
          scoring,
        },
      );
      await alerts.drain(15_000);
      if (report.blocked !== undefined)
        throw new VipError(`a due stage was left undone: ${report.blocked}`);
      out.line(
        field(
          "done",
          report.finalized.length === 0
            ? "nothing was due"
            : `finalized stage(s) ${report.finalized.join(", ")}`,
        ),
      );
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      await lock.release();
    }
  } finally {
    await service?.close();
  }
};

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
): Promise<ContractContext & { chainId: bigint }> {
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
        alerts.raise(
          retrying ? "warning" : "alert",
          0n,
          `the autopilot cannot start: ${firstLine(error)}${retrying ? "; retrying with backoff" : ""}`,
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

function wholeSeconds(raw: string, option: string, minimum: number): number {
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < minimum)
    throw new VipError(
      `${option} ${raw} is not a whole number of seconds of at least ${minimum}`,
    );
  return Number(raw);
}

function webhook(raw: string | undefined, source: string): string | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new VipError(
      `${source} is not a URL: give the webhook's http:// or https:// address`,
    );
  }
  if (!/^https?:$/.test(url.protocol))
    throw new VipError(`${source} must be an http:// or https:// URL`);
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
