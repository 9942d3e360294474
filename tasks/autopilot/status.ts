import type { ContractWatch } from "../contract/contract-watch.js";
import { writeJsonFileAtomically } from "../files/json.js";

/**
 * What `--status-file` holds after every poll: enough for a dashboard or a
 * person to see what is due when.
 */
export interface AutopilotStatus {
  updatedAt: string;
  pid: number;
  contract: string;
  chainId: string;
  /** `primary`, or `standby` (which acts on a stage `standbyAfter` seconds after its end). */
  role: "primary" | "standby";
  standbyAfter?: string;
  /** The address this host signs with. */
  signer: string;
  /** Polls since the start. */
  passes: number;
  /** For each recent stage: who pushed its final scores, who finalized it. */
  recentStages?: {
    stage: string;
    finalPushedBy: string[];
    finalizedBy?: string;
    finalizeTx?: string;
  }[];
  /** The last write to the contract by another signer that this host saw. */
  otherSignerLastWrite?: {
    signer: string;
    stage: string;
    intent?: string;
    tx: string;
    block: number;
  };
  program?: {
    stage: string;
    stageStartTime: string;
    stageEndTime: string;
    stageInterval: string;
  };
  /** The base chain's time (its latest block), ISO. */
  baseChainTime?: string;
  openStage?: string;
  /** The open stage's end and what that means now. */
  due?: {
    stage: string;
    endsAt: string;
    basis: string;
    due: boolean;
    secondsLeft: string;
    atRisk: boolean;
    late: boolean;
  };
  nextPollAt?: string;
  lastAction?: { at: string; text: string };
  lastError?: { at: string; text: string; code: string };
}

/**
 * Rewrites the status file whole (write, then rename), so a reader never sees
 * half of it.
 */
export async function writeStatus(
  file: string,
  status: AutopilotStatus,
): Promise<void> {
  await writeJsonFileAtomically(file, status);
}

/** For each recent stage the watch saw: who pushed its final scores, who finalized it. */
export function recentStagesOf(
  watch: ContractWatch,
): NonNullable<AutopilotStatus["recentStages"]> {
  return watch.recentCloses().map((close) => ({
    stage: close.stage.toString(),
    finalPushedBy: close.finalPushers,
    ...(close.finalizedBy === undefined
      ? {}
      : {
          finalizedBy: close.finalizedBy.signer,
          finalizeTx: close.finalizedBy.tx,
        }),
  }));
}

/** The other signer's last write the watch saw, as the status says it. */
export function otherSignerLastWrite(
  watch: ContractWatch,
): AutopilotStatus["otherSignerLastWrite"] {
  const last = watch.lastForeignWrite;
  if (last === undefined) return undefined;
  return {
    signer: last.signer,
    stage: last.stage.toString(),
    ...(last.intent === undefined ? {} : { intent: last.intent }),
    tx: last.tx,
    block: last.block,
  };
}

/**
 * The status's view of the contract from the watch: for each recent stage who
 * pushed its final scores and who finalized it, and the other signer's last
 * write.
 */
export function describeRecentStages(
  status: AutopilotStatus,
  watch: ContractWatch,
): void {
  status.recentStages = recentStagesOf(watch);
  const last = otherSignerLastWrite(watch);
  if (last !== undefined) status.otherSignerLastWrite = last;
}
