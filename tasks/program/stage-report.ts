import type { VipScore } from "../../types/ethers-contracts/index.js";
import { fetchChainTime, fetchVipStage } from "../clients/l1-rest.js";
import { reasonOf } from "../errors.js";
import { field, type Output } from "../output.js";
import {
  DEFAULT_GRACE_SECONDS,
  describeTiming,
  openStageTiming,
} from "./stage-timing.js";

export interface StageReport {
  programStage: bigint;
  contractOpenStage?: bigint;
}

/**
 * The VIP program's current stage on the base chain beside the contract's open
 * stage, with a warning on lag. `network` is the name the hints' commands
 * give to --network; undefined on Hardhat's in-process network (the
 * rehearsal's), which contract:deploy and stage:finalize refuse (VIP-E7701),
 * so no such command is suggested there: the rehearsal runs them itself.
 * `describeHosts`, given the contract's open stage, says who did the last
 * stages (the autopilot's recent-stages.ts), before the lag's warning.
 */
export async function runStage(
  l1RestUrl: string,
  moduleAddress: string,
  score: VipScore | undefined,
  network: string | undefined,
  out: Output,
  describeHosts?: (open: bigint) => Promise<void>,
): Promise<StageReport> {
  const program = await fetchVipStage(l1RestUrl, moduleAddress);
  out.line(
    field(
      "program stage",
      `${program.stage} (base chain, VIP module ${shortAddress(moduleAddress)})`,
    ),
  );
  if (
    program.stageStartTime !== undefined &&
    program.stageEndTime !== undefined
  ) {
    out.line(
      field(
        "stage runs",
        `${isoTime(program.stageStartTime)} to ${isoTime(program.stageEndTime)}`,
      ),
    );
  }
  if (score === undefined) {
    out.line(
      field(
        "contract open stage",
        "no VipScore deployment on this network yet " +
          (network === undefined
            ? "(the rehearsal deploys one next)"
            : `(npx hardhat contract:deploy --network ${network})`),
      ),
    );
    return { programStage: program.stage };
  }
  const open = await score.openStage();
  out.line(
    field(
      "contract open stage",
      `${open} (VipScore at ${await score.getAddress()})`,
    ),
  );
  const { stageStartTime, stageEndTime, stageInterval } = program;
  if (
    stageStartTime !== undefined &&
    stageEndTime !== undefined &&
    stageInterval !== undefined
  ) {
    try {
      const chainTime = await fetchChainTime(l1RestUrl);
      const timing = openStageTiming(
        { stage: program.stage, stageStartTime, stageEndTime, stageInterval },
        chainTime,
        open,
        DEFAULT_GRACE_SECONDS,
      );
      out.line(field("base chain time", isoTime(chainTime)));
      out.line(field("open stage ends", describeTiming(timing)));
    } catch (error) {
      out.warn(
        `the base chain's time could not be read, so the open stage's end is not shown: ${reasonOf(error, "with code")}`,
      );
    }
  }
  await describeHosts?.(open);
  if (open < program.stage) {
    const through =
      program.stage - open > 1n
        ? ` through ${program.stage - 1n}, one at a time`
        : "";
    out.warn(
      `the contract lags the program by ${program.stage - open} stage(s): ` +
        "the program snapshots finalized stages in order, " +
        `so finalize stage ${open}${through}` +
        (network === undefined
          ? ""
          : ` (npx hardhat stage:finalize --stage ${open} --network ${network}; ` +
            "stage:autopilot does it unattended)"),
    );
  } else if (open > program.stage) {
    out.warn(
      `the contract's open stage ${open} is ahead of the program's stage ` +
        `${program.stage}: was a stage finalized early?`,
    );
  }
  return { programStage: program.stage, contractOpenStage: open };
}

function shortAddress(address: string): string {
  return address.length > 14
    ? `${address.slice(0, 8)}…${address.slice(-4)}`
    : address;
}

function isoTime(seconds: bigint): string {
  return new Date(Number(seconds) * 1000).toISOString();
}
