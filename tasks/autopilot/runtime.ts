import type { Provider } from "ethers";

import { fetchStageWindow } from "../clients/stage-window.js";
import { type VipError, defined } from "../errors.js";
import { formatUnixTime as iso } from "../output.js";
import type { AlertLevel } from "./alerts.js";
import type {
  AutopilotContext,
  AutopilotOptions,
  Blocking,
} from "./context.js";
import type { AutopilotMemory } from "./memory.js";
import type { AutopilotStatus } from "./status.js";
import { blockAtOrAfterTime } from "../network/block-search.js";
import type { OpenStageTiming } from "../program/stage-timing.js";

/**
 * How far the rollup's clock may trail the base chain's: a stage's writes
 * after its end are looked for from this long before it.
 */
const CLOCK_SKEW_SECONDS = 600n;

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

  /** The rollup block from which `stage`'s writes after its end are read. */
  async blockNearEnd(stage: bigint, end?: bigint): Promise<number> {
    const { l1RestUrl: restUrl, moduleAddress } = this.options;
    return blockNearStageEnd(
      this.provider,
      { restUrl, moduleAddress },
      stage,
      end,
    );
  }

  /**
   * Whether `stage` is still the contract's open stage (a node that does not
   * answer counts as yes: nothing is concluded from silence).
   */
  async stillOpen(stage: bigint): Promise<boolean> {
    return (await this.ctx.score.openStage().catch(() => stage)) === stage;
  }
}

/**
 * The first rollup block at or after `stage`'s end less the clock skew: its
 * writes after the end, and its finalization, are read from there. A past
 * stage's end is the program's record of it (`stage_data`), never one derived
 * from today's interval.
 */
export async function blockNearStageEnd(
  provider: Provider,
  base: { restUrl: string; moduleAddress: string },
  stage: bigint,
  end?: bigint,
): Promise<number> {
  const endTime =
    end ??
    (await fetchStageWindow(base.restUrl, base.moduleAddress, stage)).end;
  return blockAtOrAfterTime(provider, endTime - CLOCK_SKEW_SECONDS);
}

/** Shown in an alert's one-line list: the first ten, then how many more. */
const SHOWN_IN_A_LIST = 10;

/** Items on one line, `; `-separated, the first ten and a count of the rest. */
export function listOnOneLine(items: string[]): string {
  const more =
    items.length > SHOWN_IN_A_LIST
      ? [`and ${items.length - SHOWN_IN_A_LIST} more`]
      : [];
  return [...items.slice(0, SHOWN_IN_A_LIST), ...more].join("; ");
}
