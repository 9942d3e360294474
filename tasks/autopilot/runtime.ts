import { fetchStageWindow } from "../clients/stage-window.js";
import { blockAtOrAfterTime } from "../network/block-search.js";
import { type VipError, defined, messageOf } from "../errors.js";
import { formatUnixTime as iso } from "../output.js";
import type { OpenStageTiming } from "../program/stage-timing.js";
import type { AlertLevel } from "./alerts.js";
import type {
  AutopilotContext,
  AutopilotOptions,
  Blocking,
} from "./context.js";
import type { AutopilotMemory } from "./memory.js";
import type { AutopilotStatus } from "./status.js";

/**
 * How far the rollup's clock may trail the base chain's: a stage's writes
 * after its end are looked for from this long before it.
 */
export const CLOCK_SKEW_SECONDS = 600n;

/**
 * What every step of the autopilot works with: the contract and its signer,
 * the options, what it remembers between passes, its status; and the two
 * things every step does the same way (raising a blocking alert, naming a
 * stage's end).
 */
export class Runtime {
  #lastBlocking?: Blocking;

  constructor(
    readonly ctx: AutopilotContext,
    readonly options: AutopilotOptions,
    readonly memory: AutopilotMemory,
    readonly status: AutopilotStatus,
  ) {}

  /** The provider the contract reads through. */
  get provider() {
    return defined(this.ctx.score.runner?.provider, "the contract's provider");
  }

  /** The signer's address, lowercase (as logs and senders are compared). */
  get me(): string {
    return this.ctx.signerAddress.toLowerCase();
  }

  /** The last blocking reason raised, for the pass's result. */
  get lastBlocking(): Blocking | undefined {
    return this.#lastBlocking;
  }

  /**
   * Raises the alert of `error` (at a bounded rate while it stands) and keeps
   * it as the status's last error.
   */
  block(
    stage: bigint,
    level: AlertLevel,
    kind: string,
    error: VipError,
  ): Blocking {
    const text = error.text;
    this.memory.alert(this.ctx.alerts, level, stage, kind, text, error.code);
    this.status.lastError = {
      at: new Date().toISOString(),
      text,
      code: error.code,
    };
    this.#lastBlocking = { text, error };
    return this.#lastBlocking;
  }

  /** Records what was done last, for the status file. */
  did(text: string): void {
    this.status.lastAction = { at: new Date().toISOString(), text };
  }

  /** The params every blocking reason of a due stage starts with. */
  ended(timing: OpenStageTiming): {
    stage: bigint;
    endedAt: string;
    graceEnds: string;
  } {
    return {
      stage: timing.stage,
      endedAt: iso(timing.endTime),
      graceEnds: iso(timing.endTime + this.options.graceSeconds),
    };
  }

  /**
   * The rollup block from which `stage`'s writes after its end are read: the
   * first at or after its end less the clock skew. A past stage's end is the
   * program's record of it (`stage_data`), never one derived from today's
   * interval.
   */
  async blockNearEnd(stage: bigint, end?: bigint): Promise<number> {
    const { l1RestUrl, moduleAddress } = this.options;
    const endTime =
      end ?? (await fetchStageWindow(l1RestUrl, moduleAddress, stage)).end;
    return blockAtOrAfterTime(this.provider, endTime - CLOCK_SKEW_SECONDS);
  }
}

/**
 * A multi-line message (a list of problems) as one line: an alert is one line
 * on stderr and one JSON string.
 */
export function reasonOnOneLine(error: unknown): string {
  return messageOf(error)
    .replace(/:\n\s*/g, ": ")
    .replace(/\n\s*/g, "; ");
}
