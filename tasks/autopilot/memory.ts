import type { AlertLevel, AlertSink } from "./alerts.js";
import type { StageWrites } from "../contract/stage-writes.js";
import type { OpenStageTiming } from "../program/stage-timing.js";
import type { ScoreFile } from "../scores/read.js";

/** A due stage's final file this host has ready, and when it was made. */
interface ReadyFinal {
  file: ScoreFile;
  /**
   * The stage's write count when it was computed (--policy: the file lists
   * with 0 the addresses on chain that the policy no longer scores, so a
   * write since may call for another computation); undefined: unfenced.
   */
  atWriteCount?: bigint;
}

/** What the autopilot remembers of the contract's open stage between passes. */
export interface StageMemory {
  stage: bigint;
  final?: ReadyFinal;
  /** The standby announced its takeover. */
  tookOver: boolean;
  /** The stage's writes since its end, once this host acts on it. */
  writes?: StageWrites;
  /** A finalization that failed on chain was sent again (once a stage). */
  finalizeResent?: boolean;
}

/**
 * What the autopilot remembers between passes: which alerts are standing (so
 * a standing one repeats at a bounded rate, and an `ok` can follow once it is
 * resolved), the live file last pushed, the open stage it works on, the last
 * timing, and the stages it saw close.
 */
export class AutopilotMemory {
  readonly #standing = new Map<string, number>();
  readonly #repeatMs: number;
  /** The live file last pushed: its version (time and size), its content. */
  livePushed?: string;
  livePushedSha?: string;
  /** The last live computation from the policy. */
  computed?: { stage: bigint; at: number };
  lastTiming?: OpenStageTiming;
  lastAnnounced?: string;
  /** The contract's open stage at the last pass. */
  lastOpenStage?: bigint;
  /** Stages finalized since, not by this host, whose close is to be reported. */
  readonly closes: bigint[] = [];
  /**
   * Closes noted when the autopilot started (the stage before the open one):
   * with --once they are reported, not checked against a final file (a cron
   * job would compute the old stage again at every run).
   */
  readonly closesAtStart = new Set<bigint>();
  /** Stages this host finalized. */
  readonly finalizedHere = new Set<bigint>();
  /** Stages this standby took over. */
  readonly tookOver = new Set<bigint>();
  /** This host's final files of the stages it worked on, for the close's check. */
  readonly finals = new Map<bigint, ScoreFile>();
  #stage?: StageMemory;

  constructor(graceSeconds: bigint, pollSeconds: number) {
    // A standing alert repeats a dozen times across the grace, never more often
    // than the autopilot polls.
    this.#repeatMs = Math.max(
      pollSeconds * 1000,
      (Number(graceSeconds) * 1000) / 12,
    );
  }

  /** What is remembered of `stage` (forgotten when another stage opens). */
  stage(stage: bigint): StageMemory {
    if (this.#stage?.stage !== stage) this.#stage = { stage, tookOver: false };
    return this.#stage;
  }

  /** Keeps `file` as this host's final file of its stage (the last few). */
  keepFinal(stage: bigint, file: ScoreFile): void {
    this.finals.set(stage, file);
    for (const old of this.finals.keys())
      if (old < stage - 2n) this.finals.delete(old);
  }

  alert(
    alerts: AlertSink,
    level: AlertLevel,
    stage: bigint,
    kind: string,
    text: string,
    code?: string,
  ): void {
    const key = `${stage}:${kind}:${level}`;
    const last = this.#standing.get(key);
    if (last !== undefined && Date.now() - last < this.#repeatMs) return;
    this.#standing.set(key, Date.now());
    alerts.raise(level, stage, text, code);
  }

  /**
   * Forgets the standing alerts of `kind` (for `stage`, or any), so the next
   * one is raised at once.
   */
  resolve(kind: string, stage?: bigint): void {
    for (const key of [...this.#standing.keys()]) {
      const [keyStage, keyKind] = key.split(":");
      if (
        keyKind === kind &&
        (stage === undefined || keyStage === stage.toString())
      )
        this.#standing.delete(key);
    }
  }
}
