import type { Signer } from "ethers";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import type { ContractWatch } from "../contract/contract-watch.js";
import type { VipError } from "../errors.js";
import type { Output } from "../output.js";
import type { AlertSink } from "./alerts.js";
import type { Role } from "./decide.js";
import type { AutopilotMonitor } from "./monitor.js";
import type { PolicyScoring } from "./policy-scores.js";
import type { Service } from "./service.js";
import type { ReportKeeper } from "../report/keeper.js";

export interface AutopilotOptions {
  scoresDir: string;
  /** Do what is due now and return; otherwise run until `signal` aborts. */
  once: boolean;
  pollSeconds: number;
  graceSeconds: bigint;
  statusFile: string;
  journalDir: string;
  l1RestUrl: string;
  moduleAddress: string;
  /** The `--network` it runs on: refusals name complete commands for it. */
  network: string;
  /** Primary, or a standby (`--standby-after`). */
  role: Role;
  /** With `--policy`: the autopilot computes the score files itself. */
  scoring?: PolicyScoring;
  /** With `--report-dir`: the stages' report, rebuilt after a pass that changed it. */
  report?: ReportKeeper;
  /** Stops the autopilot: the pass under way ends, then `runAutopilot` returns. */
  signal?: AbortSignal;
  /**
   * The project's Ignition folder: before each pass, the autopilot stops if a
   * correction (`stage:correct`) replaced its contract.
   */
  ignitionPath?: string;
}

export interface AutopilotContext {
  score: VipScore;
  signer: Signer;
  /** The signer's address, checksummed. */
  signerAddress: string;
  chainId: bigint;
  out: Output;
  alerts: AlertSink;
  /** Whether the contract fences its finalization (`writeCount`, `finalizeStageAt`). */
  fenced: boolean;
  /** The contract's writes and finalizations as they happen. */
  watch: ContractWatch;
  /** With `--listen`: the metrics and the health check the autopilot feeds. */
  monitor?: AutopilotMonitor;
}

/** Why a due stage is left undone: the alert's text, and its error. */
export interface Blocking {
  text: string;
  error: VipError;
}

/** Where the autopilot reports: its log, its alerts, and `--listen`'s service. */
export interface Watchers {
  out: Output;
  alerts: AlertSink;
  monitor?: AutopilotMonitor;
  service?: Service;
}
