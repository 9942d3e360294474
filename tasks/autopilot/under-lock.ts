import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import type { Watchers } from "./context.js";
import { runAutopilot } from "./pass-loop.js";
import { prepareContext } from "./prepare.js";
import { describeEndpoint } from "../clients/http.js";
import { ignitionPath } from "../config/package-files.js";
import { type BaseChain, taskFolder } from "../config/settings.js";
import type { ContractContext } from "../contract/context.js";
import { hasFence } from "../contract/fence.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import type { Role } from "./decide.js";
import { batchTransport } from "../indexer/batch.js";
import { field, formatDuration, type Output } from "../output.js";
import type { PolicyScoring } from "./policy-scores.js";
import type { AutopilotArgs, AutopilotSettings } from "./settings.js";
import { ReportKeeper } from "../report/keeper.js";
import { policyBounds } from "../scoring/policy-bounds.js";
import { announceSigner } from "../signer/signer.js";

export type StartedContext = ContractContext & { chainId: bigint };

/**
 * What the autopilot runs on and as (its role, its signer, checked on the
 * allow list; whether the contract fences its finalization), announced; then
 * its passes until `signal` aborts, or one with --once.
 */
export async function runUnderLock(
  hre: HardhatRuntimeEnvironment,
  args: AutopilotArgs,
  settings: AutopilotSettings,
  { out, alerts, monitor, service }: Watchers,
  context: StartedContext & { base: BaseChain },
  signal: AbortSignal,
): Promise<void> {
  const { connection, operator, score, chainId } = context;
  const { restUrl: l1RestUrl, moduleAddress } = context.base;
  announceSigner(out, operator);
  const contract = await score.getAddress();
  await checkRole(context, settings.role, out, connection.networkName);
  monitor?.identify(settings.role.kind, operator.hex.toLowerCase());
  announce(settings, out, contract, context, args.once);
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
    await prepareContext({
      score,
      signer: operator.signer,
      chainId,
      out,
      alerts,
      ...(monitor === undefined ? {} : { monitor }),
    }),
    {
      scoresDir: settings.scoresDir,
      once: args.once,
      pollSeconds: settings.pollSeconds,
      graceSeconds: settings.graceSeconds,
      statusFile: settings.statusFile,
      journalDir: settings.journalDir,
      l1RestUrl,
      moduleAddress,
      network: connection.networkName,
      role: settings.role,
      scoring,
      report: reportKeeper(settings, score, scoring),
      signal,
      ignitionPath: ignitionPath(hre),
    },
  );
  await alerts.drain(15_000);
  if (report.superseded !== undefined)
    throw new VipError(ERRORS.CONTRACT.DEPLOYMENT.SUPERSEDED, {
      contract: report.superseded.contract,
      by: report.superseded.by,
      fromStage: report.superseded.fromStage,
      at: report.superseded.at,
    });
  if (report.blocked !== undefined)
    throw new VipError(
      ERRORS.AUTOPILOT.PASSES.STAGE_LEFT_UNDONE,
      { reason: report.blocked.text },
      report.blocked.error,
    );
  out.line(
    field(
      "done",
      report.finalized.length === 0
        ? "nothing was due"
        : `finalized ${report.finalized.length === 1 ? "stage" : "stages"} ${report.finalized.join(", ")}`,
    ),
  );
}

/**
 * The host's role, said; its signer checked on the contract's allow list (a
 * standby that is not listed would fail exactly when it is needed); whether
 * the contract fences its finalization, which a standby requires.
 */
async function checkRole(
  { score, operator }: StartedContext,
  role: Role,
  out: Output,
  network: string,
): Promise<void> {
  out.line(
    field(
      "role",
      role.kind === "primary"
        ? `primary: does every stage (a standby elsewhere acts only on a stage left open)`
        : `standby: sends nothing until a stage is ${formatDuration(role.afterSeconds)} ` +
            "past its end on the base chain's clock and still not finalized",
    ),
  );
  const contract = await score.getAddress();
  if (!(await score.allowList(operator.hex)))
    throw new VipError(ERRORS.CONTRACT.ALLOW_LIST.SIGNER_NOT_ALLOWED, {
      signer: operator.hex,
      contract,
      network,
    });
  const fenced = await hasFence(score);
  if (!fenced && role.kind === "standby")
    throw new VipError(ERRORS.AUTOPILOT.TWO_HOSTS.STANDBY_NEEDS_FENCE, {
      contract,
    });
  if (!fenced)
    out.warn(
      `the contract ${contract} has no fenced finalization (deployed by an earlier version): ` +
        "run one autopilot on it; a second host needs a contract with writeCount and finalizeStageAt",
    );
}

/** What the autopilot runs on, said once at start. */
function announce(
  settings: AutopilotSettings,
  out: Output,
  contract: string,
  { chainId, connection }: StartedContext,
  once: boolean,
): void {
  const { scoresDir, pollSeconds, graceSeconds, webhookUrl } = settings;
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
      `${formatDuration(graceSeconds)} after a stage's end; ` +
        `poll every ${formatDuration(pollSeconds)}${once ? " (once)" : ""}`,
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
