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
