import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";

import type { AlertLevel } from "./alerts.js";

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
