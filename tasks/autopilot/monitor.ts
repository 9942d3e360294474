import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";

import type { AlertLevel } from "./alerts.js";
import {
  type AutopilotStatus,
  otherSignerLastWrite,
  recentStagesOf,
} from "./status.js";
import type { ContractWatch } from "../contract/contract-watch.js";

/**
 * Which external system a failed read went to: the label of `rpc_errors_total`.
 */
export type Endpoint = "base-chain-rest" | "rollup-json-rpc";

/** Polls that fail in a row before `/healthz` answers 503. */
const UNHEALTHY_AFTER_FAILED_POLLS = 3;

/**
 * What `/healthz` answers, as JSON: enough to see what is due when, and what
 * went wrong last.
 */
export interface Health {
  healthy: boolean;
  reason?: string;
  openStage?: string;
  openStageEndsAt?: string;
  secondsUntilDue?: string;
  lastFinalizedStage?: string;
  lastError?: { at: string; text: string; code: string };
  failedPollsInARow: number;
  /** `primary` or `standby`, and the address this host signs with. */
  role?: string;
  signer?: string;
  /** For each recent stage: who pushed its final scores, who finalized it. */
  recentStages?: AutopilotStatus["recentStages"];
  /** The last write to the contract by another signer that this host saw. */
  otherSignerLastWrite?: AutopilotStatus["otherSignerLastWrite"];
}

/**
 * What one poll saw of the open stage; undefined fields were not learnt (the
 * poll failed first).
 */
export interface PollView {
  openStage?: bigint;
  endTime?: bigint;
  secondsLeft?: bigint;
  /** Half the grace has passed since its end, and it is not finalized. */
  atRisk?: boolean;
  failed?: string;
  finalized: bigint[];
}

/**
 * The autopilot's signs of life for Prometheus and a health check: a registry
 * of its own (never the process-wide default, so two autopilots in one process
 * or a user's own metrics do not collide), fed by the autopilot's events.
 * Nothing secret goes in: stages, times, counts and endpoint kinds, never URLs.
 */
export class AutopilotMonitor {
  readonly registry = new Registry();
  readonly #openStage: Gauge;
  readonly #openStageEnd: Gauge;
  readonly #secondsUntilDue: Gauge;
  readonly #atRisk: Gauge;
  readonly #lastFinalizedStage: Gauge;
  readonly #lastPush: Gauge;
  readonly #lastFinalize: Gauge;
  readonly #failedPolls: Gauge;
  readonly #indexLag: Gauge;
  readonly #scoresPushed: Counter;
  readonly #alerts: Counter<"level">;
  readonly #rpcErrors: Counter<"endpoint">;
  readonly #info: Gauge<"role" | "signer">;
  readonly #takeovers: Counter;
  readonly #stageSigners: Gauge<"stage" | "action" | "signer" | "this_host">;
  readonly #otherWriteBlock: Gauge<"signer">;
  readonly #otherWriteStage: Gauge<"signer">;
  #health: Health = { healthy: true, failedPollsInARow: 0 };

  constructor() {
    const registers = [this.registry];
    const gauge = (name: string, help: string) =>
      new Gauge({ name: `vip_autopilot_${name}`, help, registers });
    this.#openStage = gauge("open_stage", "The contract's open stage");
    this.#openStageEnd = gauge(
      "open_stage_end_timestamp_seconds",
      "When the open stage ends on the base chain's clock (unix seconds)",
    );
    this.#secondsUntilDue = gauge(
      "open_stage_seconds_until_due",
      "Seconds until the open stage ends on the base chain's clock (negative: overdue)",
    );
    this.#atRisk = gauge(
      "open_stage_at_risk",
      "1 once half the grace has passed since the open stage's end (it is not finalized yet), else 0",
    );
    this.#lastFinalizedStage = gauge(
      "last_finalized_stage",
      "The last stage this autopilot finalized",
    );
    this.#lastPush = gauge(
      "last_push_timestamp_seconds",
      "When scores were last pushed successfully (unix seconds)",
    );
    this.#lastFinalize = gauge(
      "last_finalize_timestamp_seconds",
      "When a stage was last finalized successfully (unix seconds)",
    );
    this.#failedPolls = gauge(
      "failed_polls_in_a_row",
      "Polls that could not tell what is due, in a row (0 when the last one succeeded)",
    );
    this.#indexLag = gauge(
      "index_lag_blocks",
      "With --policy: blocks the activity index was behind the rollup's head when it last caught up",
    );
    this.#scoresPushed = new Counter({
      name: "vip_autopilot_scores_pushed_total",
      help: "Scores written to the contract by this autopilot's pushes",
      registers,
    });
    this.#alerts = new Counter({
      name: "vip_autopilot_alerts_total",
      help: "Alerts raised, by level (alert, warning, ok)",
      labelNames: ["level"],
      registers,
    });
    this.#rpcErrors = new Counter({
      name: "vip_autopilot_rpc_errors_total",
      help: "Reads that failed after their retries, by endpoint",
      labelNames: ["endpoint"],
      registers,
    });
    this.#info = new Gauge({
      name: "vip_autopilot_info",
      help: "1, labelled with this host's role (primary or standby) and its signer",
      labelNames: ["role", "signer"],
      registers,
    });
    this.#takeovers = new Counter({
      name: "vip_autopilot_takeovers_total",
      help: "Stages this standby took over from the primary",
      registers,
    });
    this.#stageSigners = new Gauge({
      name: "vip_autopilot_stage_signer",
      help:
        "1 for each recent stage's final push (action=final_push) and finalization " +
        "(action=finalize), labelled with the signer and whether it is this host's",
      labelNames: ["stage", "action", "signer", "this_host"],
      registers,
    });
    this.#otherWriteBlock = new Gauge({
      name: "vip_autopilot_other_signer_last_write_block",
      help: "The rollup block of the last write to the contract by another signer that this host saw",
      labelNames: ["signer"],
      registers,
    });
    this.#otherWriteStage = new Gauge({
      name: "vip_autopilot_other_signer_last_write_stage",
      help: "The stage of the last write to the contract by another signer that this host saw",
      labelNames: ["signer"],
      registers,
    });
    // Every level and endpoint from the start: a rate over a series that
    // appears late misses its first rise.
    for (const level of ["alert", "warning", "ok"])
      this.#alerts.inc({ level }, 0);
    for (const endpoint of ["base-chain-rest", "rollup-json-rpc"])
      this.#rpcErrors.inc({ endpoint }, 0);
    collectDefaultMetrics({
      register: this.registry,
      prefix: "vip_autopilot_",
    });
  }

  /**
   * After every poll: the open stage and its clock, or the failure; `healthy`
   * turns false after three.
   */
  polled(view: PollView, lastError: Health["lastError"]): void {
    const failedPollsInARow =
      view.failed === undefined ? 0 : this.#health.failedPollsInARow + 1;
    this.#failedPolls.set(failedPollsInARow);
    const health: Health = {
      ...this.#health,
      failedPollsInARow,
      healthy: failedPollsInARow < UNHEALTHY_AFTER_FAILED_POLLS,
      ...(lastError === undefined ? {} : { lastError }),
    };
    if (health.healthy) delete health.reason;
    else
      health.reason = `${failedPollsInARow} polls failed in a row: ${view.failed ?? ""}`;
    if (view.openStage !== undefined) {
      this.#openStage.set(Number(view.openStage));
      health.openStage = view.openStage.toString();
    }
    if (view.endTime !== undefined) {
      this.#openStageEnd.set(Number(view.endTime));
      health.openStageEndsAt = new Date(
        Number(view.endTime) * 1000,
      ).toISOString();
    }
    if (view.secondsLeft !== undefined) {
      this.#secondsUntilDue.set(Number(view.secondsLeft));
      health.secondsUntilDue = view.secondsLeft.toString();
    }
    if (view.atRisk !== undefined) this.#atRisk.set(view.atRisk ? 1 : 0);
    const lastFinalized = view.finalized.at(-1);
    if (lastFinalized !== undefined) {
      this.#lastFinalizedStage.set(Number(lastFinalized));
      this.#lastFinalize.setToCurrentTime();
      health.lastFinalizedStage = lastFinalized.toString();
    }
    this.#health = health;
  }

  /** At start: this host's role and signer. */
  identify(role: string, signer: string): void {
    this.#info.reset();
    this.#info.set({ role, signer }, 1);
    this.#health = { ...this.#health, role, signer };
  }

  tookOver(): void {
    this.#takeovers.inc();
  }

  /** After every poll: who did the recent stages, and the other signer's last write. */
  watched(watch: ContractWatch, me: string): void {
    this.#stageSigners.reset();
    const closes = watch.recentCloses();
    for (const close of closes) {
      const stage = close.stage.toString();
      const mark = (action: string, signer: string) =>
        this.#stageSigners.set(
          { stage, action, signer, this_host: String(signer === me) },
          1,
        );
      for (const signer of close.finalPushers) mark("final_push", signer);
      if (close.finalizedBy !== undefined)
        mark("finalize", close.finalizedBy.signer);
    }
    this.#health.recentStages = recentStagesOf(watch);
    const last = otherSignerLastWrite(watch);
    if (last === undefined) return;
    this.#otherWriteBlock.reset();
    this.#otherWriteStage.reset();
    this.#otherWriteBlock.set({ signer: last.signer }, last.block);
    this.#otherWriteStage.set({ signer: last.signer }, Number(last.stage));
    this.#health.otherSignerLastWrite = last;
  }

  pushed(scores: number): void {
    this.#scoresPushed.inc(scores);
    this.#lastPush.setToCurrentTime();
  }

  /** With `--policy`, after each computation: how far the index was behind. */
  indexed(behindBlocks: bigint): void {
    this.#indexLag.set(Number(behindBlocks));
  }

  alerted(level: AlertLevel): void {
    this.#alerts.inc({ level });
  }

  readFailed(endpoint: Endpoint): void {
    this.#rpcErrors.inc({ endpoint });
  }

  health(): Health {
    return { ...this.#health };
  }
}
