import { readFile } from "node:fs/promises";

import type { Provider } from "ethers";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { readStageClose, type StageClose } from "../contract/contract-watch.js";
import { defined, reasonOf } from "../errors.js";
import { field, type Output } from "../output.js";
import { blockNearStageEnd } from "./runtime.js";
import type { AutopilotStatus } from "./status.js";

/** Finalized stages `npx hardhat stage` looks back over. */
const LOOK_BACK = 3n;

/**
 * For the last few finalized stages before `open`: who pushed final scores
 * (the signers of marked final pushes) and who finalized, read from the
 * rollup's logs from each stage's end on (its window as the program recorded
 * it).
 */
async function recentStageCloses(
  score: VipScore,
  provider: Provider,
  base: { restUrl: string; moduleAddress: string },
  open: bigint,
): Promise<StageClose[]> {
  const first = await score.initStage();
  const closes: StageClose[] = [];
  for (
    let stage = open - 1n;
    stage >= first && stage >= open - LOOK_BACK;
    stage--
  ) {
    const from = await blockNearStageEnd(provider, base, stage);
    closes.push(
      await readStageClose(provider, await score.getAddress(), stage, from),
    );
  }
  return closes;
}

/** One line a stage: its final pushes' signers, its finalization. */
function describeCloses(out: Output, closes: StageClose[]): void {
  for (const close of closes) {
    const pushed =
      close.finalPushers.length === 0
        ? "no final push marked on chain"
        : `final scores pushed by ${close.finalPushers.join(", ")}`;
    const by = close.finalizedBy;
    const finalized =
      by === undefined
        ? "its finalization not found in the rollup's logs"
        : `finalized by ${by.signer} in tx ${by.tx}`;
    out.line(field(`stage ${close.stage}`, `${pushed}; ${finalized}`));
  }
}

/**
 * This host's autopilot as its status file says (its role, its signer, the
 * other signer's last write it saw); nothing when there is no status file.
 */
async function describeThisHost(
  out: Output,
  statusFile: string,
): Promise<void> {
  let status: Partial<AutopilotStatus>;
  try {
    status = JSON.parse(
      await readFile(statusFile, "utf8"),
    ) as Partial<AutopilotStatus>;
  } catch {
    return;
  }
  if (status.role === undefined) return;
  const after =
    status.standbyAfter === undefined
      ? ""
      : ` (acts ${status.standbyAfter} s after a stage's end)`;
  out.line(
    field(
      "this host",
      `${status.role}${after}, signer ${status.signer ?? "?"}, last poll ${status.updatedAt ?? "?"} (${statusFile})`,
    ),
  );
  const other = status.otherSignerLastWrite;
  out.line(
    field(
      "other signer",
      other === undefined
        ? "no write by another signer seen since this autopilot started"
        : `${other.signer} last wrote stage ${other.stage}` +
            `${other.intent === undefined ? "" : ` (${other.intent})`} in tx ${other.tx}, block ${other.block}`,
    ),
  );
}

/**
 * Who did the last stages (final pushes, finalizations), and this host's
 * autopilot (its role, the other signer's last write); a failure to read them
 * is a warning: the stages above are what the command is for.
 */
export async function describeHosts(
  score: VipScore,
  open: bigint,
  base: { restUrl: string; moduleAddress: string },
  statusFile: string | undefined,
  out: Output,
): Promise<void> {
  try {
    const provider = defined(score.runner?.provider, "the contract's provider");
    describeCloses(out, await recentStageCloses(score, provider, base, open));
  } catch (error) {
    out.warn(
      `who pushed and finalized the last stages could not be read: ${reasonOf(error, "with code")}`,
    );
  }
  if (statusFile !== undefined) await describeThisHost(out, statusFile);
}
