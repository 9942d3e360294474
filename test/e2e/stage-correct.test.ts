import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { type JsonRpcProvider, Wallet } from "ethers";

import { contractsFile } from "../../tasks/contract/succession.js";
import { ERRORS } from "../../tasks/error-catalog.js";
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
import { failure } from "../helpers/failure.js";
import {
  type CliResult,
  PROJECT_ROOT,
  runHardhat,
  spawnHardhat,
} from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER_KEY } from "../helpers/keys.js";
import { directProvider } from "../helpers/rig.js";

const BRIDGE = 29n;
const NOW = 2_100_000_000n;
const INTERVAL = 86_400n;
const DAY = 86_400n;
const [A, B, C, D] = ["a1", "b2", "c3", "d4"].map(
  (byte) => `0x${byte.repeat(20)}`,
) as [string, string, string, string];

function csv(rows: [string, bigint][]): string {
  return (
    ["address,score", ...rows.map(([a, s]) => `${a},${s}`)].join("\n") + "\n"
  );
}

describe("stage:correct: a wrongly finalized stage corrected on a new contract, with its proposal (hardhat node)", function () {
  let node: HardhatNode;
  let provider: JsonRpcProvider;
  let baseChain: L1RestStandIn;
  let rollupRest: RollupRestStandIn;
  let old: VipScore;
  let work: string;
  let scoresDir: string;
  let journalDir: string;
  let outDir: string;

  before(async () => {
    node = await startHardhatNode();
    provider = directProvider(node);
  });
  after(async () => {
    await node.close();
    await forgetChain();
  });

  /** The chain's deployments and its entry in vip-contracts.json, removed. */
  const forgetChain = async () => {
    const deployments = path.join(PROJECT_ROOT, "ignition", "deployments");
    for (const id of [
      `chain-${node.chainId}`,
      `chain-${node.chainId}-from-stage-5`,
    ])
      await rm(path.join(deployments, id), { recursive: true, force: true });
    const file = contractsFile(path.join(PROJECT_ROOT, "ignition"));
    if (!existsSync(file)) return;
    const record = JSON.parse(await readFile(file, "utf8")) as {
      chains: Record<string, unknown>;
    };
    delete record.chains[node.chainId.toString()];
    if (Object.keys(record.chains).length === 0) await rm(file);
    else await writeFile(file, JSON.stringify(record, null, 2) + "\n");
  };

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
    scoresDir = path.join(work, "scores");
    journalDir = path.join(work, "journal");
    outDir = path.join(work, "correction");
    await mkdir(scoresDir);
    // The contract, deployed as an operator does, then stages 5 and 6
    // finalized (5 wrongly), stage 7 open with a live score.
    const deployed = await cli(["contract:deploy", "--start-stage", "5"]);
    expect(deployed.code, deployed.output).to.equal(0);
    const address = defined(
      /deployed\s+VipScore at (0x[0-9a-fA-F]{40})/.exec(deployed.stdout)?.[1],
      "contract:deploy names the address",
    );
    old = VipScore__factory.connect(
      address,
      new Wallet(DEPLOYER_KEY, provider),
    );
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
      path.join(scoresDir, "stage-5.final.csv"),
      csv([
        [A, 10n],
        [B, 25n],
        [D, 5n],
      ]),
    );
    await writeFile(
      path.join(scoresDir, "stage-6.final.csv"),
      csv([
        [A, 1n],
        [C, 3n],
      ]),
    );
  });
  afterEach(async () => {
    await Promise.all([baseChain.close(), rollupRest.close()]);
    await rm(work, { recursive: true, force: true });
  });

  const env = () => ({
    JSON_RPC_URL: node.url,
    PRIVATE_KEY: DEPLOYER_KEY,
    L1_REST_URL: baseChain.url,
    ROLLUP_REST_URL: rollupRest.url,
  });
  const cli = (args: string[]): Promise<CliResult> =>
    runHardhat([...args, "--network", "rollup"], env());
  const correctArgs = (...extra: string[]) => [
    "stage:correct",
    "--stage",
    "5",
    "--scores-dir",
    scoresDir,
    "--journal-dir",
    journalDir,
    "--out",
    outDir,
    "--network",
    "rollup",
    ...extra,
  ];
  const correct = (...extra: string[]) =>
    runHardhat(correctArgs(...extra), env());
  const scoresOf = async (score: VipScore, stage: bigint) => {
    const found = new Map<string, bigint>();
    for (const entry of await score.getScores(stage, 0n, 1000n))
      found.set(entry.addr.toLowerCase(), entry.amount);
    return found;
  };
  const nonce = () =>
    provider.getTransactionCount(new Wallet(DEPLOYER_KEY).address);

  it("--dry-run prints the plan (the changes, the replay, the deadline, the proposal) and sends nothing", async () => {
    const before = await nonce();
    const plan = await correct("--dry-run");
    expect(plan.code, plan.output).to.equal(0);
    expect(plan.stdout).to.match(
      /stage to correct\s+5 \(finalized on 0x[0-9a-fA-F]{40}; its open stage is 7\)/,
    );
    expect(plan.stdout).to.match(
      /stage 5\s+2 address\(es\) change; total 30 → 40 \(\+10\)/,
    );
    expect(plan.stdout.toLowerCase()).to.include(`${D}: 0 → 5 (+5)`);
    expect(plan.stdout.toLowerCase()).to.include(`${B}: 20 → 25 (+5)`);
    expect(plan.stdout).to.match(
      /stage 6\s+unchanged: 2 score\(s\), total 4, replayed as it is/,
    );
    expect(plan.stdout).to.match(
      /challenge 5\s+snapshot taken .*; the window closes at .* \(in 2 d 0 h\): an expedited proposal \(1 d 0 h of voting\) submitted now ends its vote in time/,
    );
    expect(plan.stdout).to.match(
      /proposal\s+the contract update and the challenge\(s\), in one proposal/,
    );
    expect(plan.stdout).to.include("dry run: nothing was sent or written");
    expect(await nonce()).to.equal(before);
    expect(existsSync(outDir)).to.equal(false);
  });

  it("corrects: a new contract with stages 5 and 6 as their files, finalized, stage 7 open there; the old one untouched and refused; the proposal and the post", async () => {
    const oldBefore = await scoresOf(old, 5n);
    const done = await correct(
      "--yes",
      "--reason",
      "the policy missed D's trades",
    );
    expect(done.code, done.output).to.equal(0);
    const address = defined(
      /deployed\s+VipScore at (0x[0-9a-fA-F]{40})/.exec(done.stdout)?.[1],
      "the correction names the new contract",
    );
    const fresh = VipScore__factory.connect(address, provider);
    expect(await fresh.initStage()).to.equal(5n);
    expect(await fresh.openStage()).to.equal(7n);
    expect(await scoresOf(fresh, 5n)).to.deep.equal(
      new Map([
        [A, 10n],
        [B, 25n],
        [D, 5n],
      ]),
    );
    expect(await scoresOf(fresh, 6n)).to.deep.equal(
      new Map([
        [A, 1n],
        [C, 3n],
      ]),
    );
    expect((await fresh.stages(6n)).isFinalized).to.equal(true);
    // The old contract is as it was.
    expect(await old.openStage()).to.equal(7n);
    expect(await scoresOf(old, 5n)).to.deep.equal(oldBefore);

    // The tasks use the new contract by default, and refuse to write to the old one.
    const shown = await cli(["stage"]);
    expect(shown.stdout).to.match(
      new RegExp(`contract open stage\\s+7 \\(VipScore at ${address}\\)`),
    );
    await writeFile(path.join(work, "live.csv"), csv([[A, 3n]]));
    const refused = await cli([
      "scores:update",
      "--stage",
      "7",
      "--file",
      path.join(work, "live.csv"),
      "--contract",
      await old.getAddress(),
      "--journal-dir",
      journalDir,
    ]);
    expect(failure(refused, ERRORS.CONTRACT.SUPERSEDED)).to.include(address);
    const live = await cli([
      "scores:update",
      "--stage",
      "7",
      "--file",
      path.join(work, "live.csv"),
      "--journal-dir",
      journalDir,
    ]);
    expect(live.code, live.output).to.equal(0);
    expect((await fresh.scores(7n, A)).amount).to.equal(3n);
    expect((await old.scores(7n, A)).amount).to.equal(2n);

    // The proposal: the contract update, then the challenge of stage 5.
    const proposal = JSON.parse(
      await readFile(path.join(outDir, "proposal.json"), "utf8"),
    ) as {
      messages: { "@type": string; function_name: string; args: string[] }[];
      expedited: boolean;
    };
    expect(proposal.expedited).to.equal(true);
    expect(
      proposal.messages.map((m) => [
        m["@type"],
        m.function_name,
        m.args.map((a) => JSON.parse(a) as string),
      ]),
    ).to.deep.equal([
      [
        "/initia.move.v1.MsgGovExecuteJSON",
        "update_l2_score_contract",
        [BRIDGE.toString(), address],
      ],
      [
        "/initia.move.v1.MsgGovExecuteJSON",
        "execute_rollup_challenge",
        [BRIDGE.toString(), "5"],
      ],
    ]);
    expect(
      existsSync(path.join(outDir, "proposal-contract-update.json")),
    ).to.equal(false);
    const post = await readFile(path.join(outDir, "forum-post.md"), "utf8");
    expect(post).to.include(address);
    expect(post).to.include("changed-addresses.csv");
    expect(
      await readFile(path.join(outDir, "changed-addresses.csv"), "utf8"),
    ).to.equal(
      "address,stage,old_score,new_score,delta\n" +
        `${B},5,20,25,5\n${D},5,0,5,5\n`,
    );

    // Run again: done, nothing sent.
    const before = await nonce();
    const again = await correct("--yes");
    expect(again.code, again.output).to.equal(0);
    expect(await nonce()).to.equal(before);
  });

  it("resumes a correction killed during the replay: the same end, nothing sent twice", async () => {
    const updateScores = old.interface.getFunction("updateScores").selector;
    const killed = spawnHardhat(correctArgs("--yes"), env());
    let printed = "";
    defined(killed.child.stdout, "stdout").on(
      "data",
      (chunk: Buffer) => (printed += chunk.toString()),
    );
    // Killed once stage 5's push has gone out to the new contract.
    for (
      const deadline = Date.now() + 120_000;
      !/replay\s+stage 5/.test(printed) ||
      (await updateCount(updateScores)) < 1;
    ) {
      if (Date.now() > deadline) throw new Error("the replay never started");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    killed.child.kill("SIGKILL");
    await killed.result;

    const resumed = await correct("--yes");
    expect(resumed.code, resumed.output).to.equal(0);
    expect(resumed.stdout).to.match(/journal\s+.*stage-5\.jsonl: resuming/);
    const address = defined(
      /already deployed\s+VipScore at (0x[0-9a-fA-F]{40})|deployed\s+VipScore at (0x[0-9a-fA-F]{40})/
        .exec(resumed.stdout + printed)
        ?.slice(1)
        .find((x) => x !== undefined),
      "the new contract",
    );
    const fresh = VipScore__factory.connect(address, provider);
    expect(await fresh.openStage()).to.equal(7n);
    expect(await scoresOf(fresh, 5n)).to.deep.equal(
      new Map([
        [A, 10n],
        [B, 25n],
        [D, 5n],
      ]),
    );
    // One push per replayed stage (two stages, one batch each), one
    // finalization each: nothing sent twice.
    expect(await updateCount(updateScores, address)).to.equal(2);
  });

  /** `updateScores` transactions to `to` (any contract but the old one when undefined). */
  const updateCount = async (selector: string, to?: string) => {
    let count = 0;
    const oldAddress = (await old.getAddress()).toLowerCase();
    for (let n = 0, latest = await provider.getBlockNumber(); n <= latest; n++)
      for (const tx of defined(await provider.getBlock(n, true), "block")
        .prefetchedTransactions)
        if (
          tx.data.startsWith(selector) &&
          tx.to !== null &&
          (to === undefined
            ? tx.to.toLowerCase() !== oldAddress
            : tx.to.toLowerCase() === to.toLowerCase())
        )
          count++;
    return count;
  };
});
