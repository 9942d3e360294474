import type { NetworkConfig } from "hardhat/types/config";

import {
  fetchChainTime,
  fetchVipProgram,
  type VipProgram,
} from "../clients/l1-rest.js";
import { baseChain } from "../config/settings.js";
import { ERRORS } from "../error-catalog.js";
import { reasonOf, VipError } from "../errors.js";
import {
  field,
  formatDuration,
  formatUnixTime,
  type Output,
} from "../output.js";
import {
  DEFAULT_GRACE_SECONDS,
  openStageTiming,
} from "../program/stage-timing.js";

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
      `the stage's end could not be checked on the base chain (${reasonOf(error, "with code")}); ` +
        `finalizing stage ${stage} anyway (--force)`,
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
    const ago = formatDuration(-timing.secondsLeft);
    out.line(
      field(
        "stage ended",
        `stage ${stage} ended at ${end} on the base chain's clock ` +
          `(${ago} ago; the program's stage is ${program.stage})`,
      ),
    );
    return;
  }
  const left = formatDuration(timing.secondsLeft);
  if (!force)
    throw new VipError(ERRORS.CONTRACT.STAGES.STAGE_NOT_ENDED, {
      stage,
      end,
      left,
      programStage: program.stage,
    });
  out.warn(
    `stage ${stage} has not ended on the base chain: it ends at ${end}, in ${left} ` +
      `on the base chain's clock (the program's stage is ${program.stage}); ` +
      "finalizing it anyway (--force)",
  );
}
