import { existsSync } from "node:fs";
import {
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { type JsonRpcProvider, Wallet } from "ethers";

import { type CliResult, PROJECT_ROOT, runHardhat } from "./hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "./hardhat-node.js";
import { DEPLOYER_KEY } from "./keys.js";
import { directProvider } from "./rig.js";
import { contractsFile } from "../../tasks/contract/succession.js";
import { defined } from "../../tasks/errors.js";
import {
  type L1RestStandIn,
  startL1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import {
  type RollupRestStandIn,
  startRollupRestStandIn,
} from "../../tasks/stand-ins/rollup-rest.js";
import {
  type VipScore,
  VipScore__factory,
} from "../../types/ethers-contracts/index.js";

export const BRIDGE = 29n;
/** The base chain's time in the stand-in (Unix seconds). */
export const NOW = 2_100_000_000n;
const INTERVAL = 86_400n;
export const DAY = 86_400n;
export const [A, B, C, D] = ["a1", "b2", "c3", "d4"].map(
  (byte) => `0x${byte.repeat(20)}`,
) as [string, string, string, string];

export function csv(rows: [string, bigint][]): string {
  return (
    ["address,score", ...rows.map(([a, s]) => `${a},${s}`)].join("\n") + "\n"
  );
}

/**
 * What a `stage:correct` test runs against, rebuilt before each test: a
 * hardhat node (one per file), the base chain's REST stand-in (the program at
 * stage 7, stages 5 and 6 snapshotted for the bridge, a 3-day challenge
 * period, a 1-day expedited vote) and the rollup's (its bridge id), a VipScore
 * deployed with `contract:deploy` from stage 5 with stages 5 (wrongly) and 6
 * finalized and 7 open with a live score, and the corrected final files of 5
 * and 6 in `scoresDir`. Its values are read once its hooks have run.
 */
export interface CorrectionRig {
  readonly node: HardhatNode;
  readonly provider: JsonRpcProvider;
  readonly baseChain: L1RestStandIn;
  readonly rollupRest: RollupRestStandIn;
  /** The deployed contract, its signer the deployer. */
  readonly old: VipScore;
  /** The test's own folder, removed after it. */
  readonly work: string;
  readonly scoresDir: string;
  readonly journalDir: string;
  /** `stage:correct`'s --out: never created before the correction writes it. */
  readonly outDir: string;
  /** The chain's deployments and its entry in vip-contracts.json, removed. */
  readonly forgetChain: () => Promise<void>;
  /** The environment a task runs with (the deployer's key, both stand-ins). */
  readonly env: () => Record<string, string>;
  /** `hardhat <args> --network rollup`, with `env()`. */
  readonly cli: (args: string[]) => Promise<CliResult>;
  /** `stage:correct --stage 5` with the rig's folders, and `extra`. */
  readonly correctArgs: (...extra: string[]) => string[];
  /** Like `correctArgs`, for another stage. */
  readonly correctStageArgs: (stage: bigint, ...extra: string[]) => string[];
  /** Runs `correctArgs(...extra)` with `env()`. */
  readonly correct: (...extra: string[]) => Promise<CliResult>;
  /** A stage's scores on a contract, by lower-case address. */
  readonly scoresOf: (
    score: VipScore,
    stage: bigint,
  ) => Promise<Map<string, bigint>>;
  /** The deployer's transaction count: unchanged when nothing was sent. */
  readonly nonce: () => Promise<number>;
}

/**
 * Registers the rig's hooks in the calling `describe` (before its own, so a
 * test's hooks see the rig built) and hands it back.
 */
export function useCorrectionRig(): CorrectionRig {
  let node: HardhatNode | undefined;
  let provider: JsonRpcProvider | undefined;
  let baseChain: L1RestStandIn | undefined;
  let rollupRest: RollupRestStandIn | undefined;
  let old: VipScore | undefined;
  let work: string | undefined;

  const built = <T>(value: T | undefined, what: string): T =>
    defined(value, `the correction rig's ${what} (read inside a test)`);

  const forgetChain = async () => {
    const chainId = built(node, "node").chainId;
    const deployments = path.join(PROJECT_ROOT, "ignition", "deployments");
    // The chain's own deployment and every correction's (chain-<id>-…).
    for (const id of existsSync(deployments) ? await readdir(deployments) : [])
      if (id === `chain-${chainId}` || id.startsWith(`chain-${chainId}-`))
        await rm(path.join(deployments, id), { recursive: true, force: true });
    const file = contractsFile(path.join(PROJECT_ROOT, "ignition"));
    await rm(`${file}.bak`, { force: true });
    if (!existsSync(file)) return;
    const record = JSON.parse(await readFile(file, "utf8")) as {
      chains: Record<string, unknown>;
    };
    delete record.chains[chainId.toString()];
    if (Object.keys(record.chains).length === 0) await rm(file);
    else await writeFile(file, JSON.stringify(record, null, 2) + "\n");
  };

  const rig: CorrectionRig = {
    get node() {
      return built(node, "node");
    },
    get provider() {
      return built(provider, "provider");
    },
    get baseChain() {
      return built(baseChain, "base chain stand-in");
    },
    get rollupRest() {
      return built(rollupRest, "rollup stand-in");
    },
    get old() {
      return built(old, "contract");
    },
    get work() {
      return built(work, "folder");
    },
    get scoresDir() {
      return path.join(rig.work, "scores");
    },
    get journalDir() {
      return path.join(rig.work, "journal");
    },
    get outDir() {
      return path.join(rig.work, "correction");
    },
    forgetChain,
    env: () => ({
      JSON_RPC_URL: rig.node.url,
      PRIVATE_KEY: DEPLOYER_KEY,
      L1_REST_URL: rig.baseChain.url,
      ROLLUP_REST_URL: rig.rollupRest.url,
    }),
    cli: (args) => runHardhat([...args, "--network", "rollup"], rig.env()),
    correctStageArgs: (stage, ...extra) => [
      "stage:correct",
      "--stage",
      stage.toString(),
      "--scores-dir",
      rig.scoresDir,
      "--journal-dir",
      rig.journalDir,
      "--out",
      rig.outDir,
      "--network",
      "rollup",
      ...extra,
    ],
    correctArgs: (...extra) => rig.correctStageArgs(5n, ...extra),
    correct: (...extra) => runHardhat(rig.correctArgs(...extra), rig.env()),
    scoresOf: async (score, stage) => {
      const found = new Map<string, bigint>();
      for (const entry of await score.getScores(stage, 0n, 1000n))
        found.set(entry.addr.toLowerCase(), entry.amount);
      return found;
    },
    nonce: () =>
      rig.provider.getTransactionCount(new Wallet(DEPLOYER_KEY).address),
  };

  before(async () => {
    node = await startHardhatNode();
    provider = directProvider(node);
  });
  after(async () => {
    if (node === undefined) return;
    await node.close();
    await forgetChain();
  });

  beforeEach(async () => {
    await forgetChain();
    // The program at stage 8 (stage 7 running); stages 5 and 6 snapshotted.
    baseChain = await startL1RestStandIn({
      stage: 7n,
      stageStartTime: NOW - DAY / 2n,
      stageEndTime: NOW + DAY / 2n,
      stageInterval: INTERVAL,
      now: NOW,
      registeredBridges: [BRIDGE],
      challengePeriod: 3n * DAY,
      expeditedVotingPeriod: DAY,
      snapshots: new Map([
        [5n, new Map([[`${BRIDGE}:1`, { createTime: NOW - DAY }]])],
        [6n, new Map([[`${BRIDGE}:1`, { createTime: NOW - DAY / 4n }]])],
      ]),
    });
    rollupRest = await startRollupRestStandIn({ bridgeId: BRIDGE });
    work = await mkdtemp(path.join(tmpdir(), "vip-correct-"));
    await mkdir(rig.scoresDir);
    // The contract, deployed as an operator does, then stages 5 and 6
    // finalized (5 wrongly), stage 7 open with a live score.
    const deployed = await rig.cli(["contract:deploy", "--start-stage", "5"]);
    expect(deployed.code, deployed.output).to.equal(0);
    const address = defined(
      /deployed\s+VipScore at (0x[0-9a-fA-F]{40})/.exec(deployed.stdout)?.[1],
      "contract:deploy names the address",
    );
    old = VipScore__factory.connect(
      address,
      new Wallet(DEPLOYER_KEY, rig.provider),
    );
    // The program reads the rollup's scores from it.
    rig.baseChain.state.scoreContracts.set(BRIDGE, address);
    for (const [stage, rows] of [
      [
        5n,
        [
          [A, 10n],
          [B, 20n],
        ],
      ],
      [
        6n,
        [
          [A, 1n],
          [C, 3n],
        ],
      ],
    ] as [bigint, [string, bigint][]][]) {
      await (
        await old.updateScores(
          stage,
          rows.map((r) => r[0]),
          rows.map((r) => r[1]),
        )
      ).wait();
      await (await old.finalizeStage(stage)).wait();
    }
    await (await old.updateScores(7n, [A], [2n])).wait();
    // The corrected stage 5 (B was short, D missing); stage 6 was right.
    await writeFile(
      path.join(rig.scoresDir, "stage-5.final.csv"),
      csv([
        [A, 10n],
        [B, 25n],
        [D, 5n],
      ]),
    );
    await writeFile(
      path.join(rig.scoresDir, "stage-6.final.csv"),
      csv([
        [A, 1n],
        [C, 3n],
      ]),
    );
  });
  afterEach(async () => {
    await Promise.all([baseChain?.close(), rollupRest?.close()]);
    if (work !== undefined) await rm(work, { recursive: true, force: true });
    baseChain = undefined;
    rollupRest = undefined;
    old = undefined;
    work = undefined;
  });

  return rig;
}
