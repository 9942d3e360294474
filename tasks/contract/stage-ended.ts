import type { NetworkConfig } from "hardhat/types/config";

import {
  DEFAULT_GRACE_SECONDS,
  openStageTiming,
} from "../program/stage-timing.js";
import {
  fetchChainTime,
  fetchVipProgram,
  type VipProgram,
} from "../clients/l1-rest.js";
import { baseChain } from "../config/settings.js";
import { firstLine, VipError } from "../errors.js";
import {
  field,
  formatDuration,
  formatUnixTime,
  type Output,
} from "../output.js";

/**
 * Refuses to go on while `stage` is still running on the base chain's clock:
 * the autopilot's rule (`openStageTiming`), for `stage:finalize`. Finalizing
 * cannot be undone, and a stage finalized early keeps the scores it has, so
 * activity in its last hours would go unrewarded. `force` lets an operator who
 * knows better go ahead, with a warning, even when the base chain cannot be
 * asked.
 */
export async function requireStageEnded(
  networkName: string,
  network: NetworkConfig,
  stage: bigint,
  force: boolean,
  out: Output,
): Promise<void> {
  let program: VipProgram;
  let chainTime: bigint;
  try {
    const { restUrl, moduleAddress } = await baseChain(networkName, network);
    [program, chainTime] = await Promise.all([
      fetchVipProgram(restUrl, moduleAddress),
      fetchChainTime(restUrl),
    ]);
  } catch (error) {
    // --force is also the way out when the base chain cannot be asked (its
    // REST API down while a stage must be closed): said, not hidden.
    if (!force) throw error;
    out.warn(
      `the stage's end could not be checked on the base chain (${firstLine(error)}); finalizing stage ${stage} anyway (--force)`,
    );
    return;
  }
  const timing = openStageTiming(
    program,
    chainTime,
    stage,
    DEFAULT_GRACE_SECONDS,
  );
  const end = formatUnixTime(timing.endTime);
  if (timing.due) {
    out.line(
      field(
        "stage ended",
        `stage ${stage} ended at ${end} on the base chain's clock (${formatDuration(-timing.secondsLeft)} ago; the program's stage is ${program.stage})`,
      ),
    );
    return;
  }
  const left = `it ends at ${end}, in ${formatDuration(timing.secondsLeft)} on the base chain's clock (the program's stage is ${program.stage})`;
  if (!force)
    throw new VipError(
      `stage ${stage} has not ended on the base chain: ${left}. Finalizing cannot be undone and would freeze its scores early; ` +
        "nothing was sent. Run the same command after its end (or let stage:autopilot do it), or add --force to finalize it now",
    );
  out.warn(
    `stage ${stage} has not ended on the base chain: ${left}; finalizing it anyway (--force)`,
  );
}
