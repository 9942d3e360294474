import { challengeWindow, type ChallengeWindow } from "./plan.js";
import {
  type BridgeInfo,
  fetchBridgeInfos,
  fetchChainTime,
  fetchGovParams,
  fetchVipStage,
} from "../clients/l1-rest.js";
import { fetchSnapshot } from "../clients/vip-snapshots.js";

/** The base chain's code default when the program has no challenge period. */
const DEFAULT_CHALLENGE_PERIOD = 86_400n;

/** What the base chain says of the stages' challenges. */
export interface ChallengeWindows {
  windows: ChallengeWindow[];
  chainTime: bigint;
  /** The voting period a correction's proposal gets. */
  votingSeconds: bigint;
  /** Whether the chain has an expedited voting period (the proposal asks for it). */
  expedited: boolean;
  /** The deposit a proposal needs (the expedited one when there is one). */
  deposit: string;
  /** The bridge as the program knows it; undefined when it is not registered. */
  bridge?: BridgeInfo;
  /** Each snapshotted stage's total score, as the snapshot holds it. */
  snapshotTotals: Map<bigint, bigint>;
  /** Whether the program names its challenge period (else its code default is assumed). */
  challengePeriodKnown: boolean;
}

/**
 * The challenge window of each of `stages` for the bridge: its snapshot's
 * creation time (`stage_data[stage].snapshots[(bridge, version)]`) plus the
 * program's challenge period, against the base chain's time and the voting
 * period of an expedited proposal (the gov params'), all read now.
 */
export async function readChallengeWindows(
  base: { restUrl: string; moduleAddress: string },
  bridgeId: bigint,
  stages: bigint[],
): Promise<ChallengeWindows> {
  const { restUrl, moduleAddress } = base;
  const [program, infos, gov, chainTime] = await Promise.all([
    fetchVipStage(restUrl, moduleAddress),
    fetchBridgeInfos(restUrl, moduleAddress),
    fetchGovParams(restUrl),
    fetchChainTime(restUrl),
  ]);
  // The bridge's snapshots are kept under its current version; a bridge the
  // program has not registered has none.
  const bridge = infos.find((info) => info.bridgeId === bridgeId);
  const version = bridge?.version;
  const votingSeconds =
    gov.expeditedVotingPeriodSeconds ?? gov.votingPeriodSeconds;
  const challengePeriod = program.challengePeriod ?? DEFAULT_CHALLENGE_PERIOD;
  const windows: ChallengeWindow[] = [];
  const snapshotTotals = new Map<bigint, bigint>();
  for (const stage of stages) {
    const snapshot =
      version === undefined
        ? undefined
        : await fetchSnapshot(restUrl, moduleAddress, stage, bridgeId, version);
    if (snapshot !== undefined)
      snapshotTotals.set(stage, snapshot.totalL2Score);
    windows.push(
      challengeWindow(
        stage,
        snapshot?.createTime,
        challengePeriod,
        chainTime,
        votingSeconds,
      ),
    );
  }
  return {
    windows,
    chainTime,
    votingSeconds,
    expedited: gov.expeditedVotingPeriodSeconds !== undefined,
    deposit: gov.expeditedMinDeposit ?? gov.minDeposit,
    ...(bridge === undefined ? {} : { bridge }),
    snapshotTotals,
    challengePeriodKnown: program.challengePeriod !== undefined,
  };
}
