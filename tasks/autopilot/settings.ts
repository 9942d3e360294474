import { stat } from "node:fs/promises";
import path from "node:path";

import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { optionalAlertWebhook, taskFolder } from "../config/settings.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import type { Role } from "./decide.js";
import { operatorNetwork } from "../network/connect.js";
import { loadPolicies } from "../policy/load.js";
import type { Policy } from "../policy/parse.js";
import { checkOut } from "../report/write-site.js";
import {
  type PolicyBoundOptions,
  policyBounds,
} from "../scoring/policy-bounds.js";
import { admitBeforeReading } from "../scoring/prepare.js";

/** `stage:autopilot`'s options, as Hardhat parses them. */
export interface AutopilotArgs extends PolicyBoundOptions {
  scoresDir: string;
  policy?: string;
  computeInterval: string;
  dataDir?: string;
  once: boolean;
  pollInterval: string;
  grace: string;
  standbyAfter?: string;
  webhook?: string;
  statusFile?: string;
  listen?: string;
  journalDir?: string;
  contract?: string;
  deploymentId?: string;
  reportDir?: string;
}

/** What the options say, read and checked before anything is reached. */
export interface AutopilotSettings {
  scoresDir: string;
  pollSeconds: number;
  computeSeconds: number;
  graceSeconds: bigint;
  role: Role;
  /** With --policy: read before anything is reached. */
  policies?: Policy[];
  webhookUrl?: string;
  journalDir: string;
  statusFile: string;
  /** With --report-dir: checked to be a report's folder (or new) before anything is reached. */
  reportDir?: string;
}

/**
 * The options, checked, and the settings they name: the policies are read
 * before anything is reached (a bad header never waits on a node), the webhook
 * is --webhook, else the network's vip.alertWebhook (keystore or environment),
 * else VIP_ALERT_WEBHOOK for a config without that setting.
 */
export async function readSettings(
  args: AutopilotArgs,
  hre: HardhatRuntimeEnvironment,
): Promise<AutopilotSettings> {
  const scoresDir = path.resolve(args.scoresDir);
  const dir = await stat(scoresDir).catch(() => undefined);
  if (dir?.isDirectory() !== true)
    throw new VipError(ERRORS.AUTOPILOT.SETUP.SCORES_DIR_NOT_A_FOLDER, {
      dir: scoresDir,
    });
  const pollSeconds = wholeSeconds(args.pollInterval, "--poll-interval", 1);
  const computeSeconds = wholeSeconds(
    args.computeInterval,
    "--compute-interval",
    1,
  );
  const graceSeconds = BigInt(wholeSeconds(args.grace, "--grace", 0));
  const role: Role =
    args.standbyAfter === undefined
      ? { kind: "primary" }
      : {
          kind: "standby",
          afterSeconds: BigInt(
            wholeSeconds(args.standbyAfter, "--standby-after", 0),
          ),
        };
  const policies =
    args.policy === undefined ? undefined : await loadPolicies(args.policy);
  // Each is admitted now, before anything is read: a policy that cannot run
  // is refused at start, not at a stage's end.
  if (policies !== undefined)
    await admitBeforeReading(
      policies,
      policyBounds(args, operatorNetwork(hre).config),
    );
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
    role,
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

function wholeSeconds(raw: string, option: string, minimum: number): number {
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < minimum)
    throw new VipError(ERRORS.AUTOPILOT.SETUP.NOT_WHOLE_SECONDS, {
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
    throw new VipError(ERRORS.AUTOPILOT.SETUP.WEBHOOK_NOT_A_URL, { source });
  }
  if (!/^https?:$/.test(url.protocol))
    throw new VipError(ERRORS.AUTOPILOT.SETUP.WEBHOOK_NOT_HTTP, { source });
  return url.toString();
}
