import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { defined } from "../../tasks/errors.js";
import { readScoreFile } from "../../tasks/scores/read.js";
import {
  startCometBftStandIn,
  type CometBftStandIn,
} from "../../tasks/stand-ins/cometbft.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import { VipScore__factory } from "../../types/ethers-contracts/index.js";
import { failure } from "../helpers/failure.js";
import { PROJECT_ROOT, runHardhat } from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER_KEY } from "../helpers/keys.js";
import { directProvider } from "../helpers/rig.js";

const SAMPLE = path.join(PROJECT_ROOT, "scripts", "sample-scores.csv");

describe("the operator flow on a hardhat node over HTTP", () => {
  let node: HardhatNode;
  let cometbft: CometBftStandIn;
  let baseChain: L1RestStandIn;
  let env: Record<string, string>;
  let journalDir: string;
  const onRollup = (args: string[]) =>
    runHardhat(
      [
        ...args,
        "--network",
        "rollup",
        ...(args[0] === "scores:update" ? ["--journal-dir", journalDir] : []),
      ],
      env,
    );

  before(async () => {
    [node, cometbft, baseChain] = await Promise.all([
      startHardhatNode(),
      startCometBftStandIn(),
      startL1RestStandIn({ stage: 15n }),
    ]);
    env = {
      JSON_RPC_URL: node.url,
      PRIVATE_KEY: DEPLOYER_KEY,
      ROLLUP_RPC_URL: cometbft.url,
      L1_REST_URL: baseChain.url,
    };
    journalDir = await mkdtemp(path.join(tmpdir(), "vip-flow-journal-"));
  });

  after(async () => {
    await Promise.all([node.close(), cometbft.close(), baseChain.close()]);
    await rm(
      path.join(
        PROJECT_ROOT,
        "ignition",
        "deployments",
        `chain-${node.chainId}`,
      ),
      { recursive: true, force: true },
    );
    await rm(journalDir, { recursive: true, force: true });
  });

  it("version → chain-id → deploy → scores:update → stage:finalize leaves the next stage open", async () => {
    const provider = directProvider(node);

    const version = await onRollup(["version"]);
    expect(version.code, version.output).to.equal(0);
    expect(version.stdout).to.match(/^version\s+v1\.0\.2$/m);
    expect(version.stdout).to.match(/^block height\s+10458738$/m);

    const chainId = await onRollup(["chain-id"]);
    expect(chainId.code, chainId.output).to.equal(0);
    expect(chainId.stdout).to.match(
      new RegExp(
        `^EVM chain id\\s+${node.chainId} \\(0x${node.chainId.toString(16)}\\)$`,
        "m",
      ),
    );
    expect(chainId.stdout).to.match(/^Cosmos chain id\s+rehearsal-1$/m);

    const deploy = await onRollup(["contract:deploy"]);
    expect(deploy.code, deploy.output).to.equal(0);
    expect(deploy.stdout).to.match(
      /^start stage\s+15 \(the base chain's current VIP stage\)$/m,
    );
    const address = defined(
      defined(
        /VipScore at (0x[0-9a-fA-F]{40})/.exec(deploy.stdout),
        "/VipScore at (0x[0-9a-fA-F]{40})/.exec(deploy.stdout)",
      )[1],
      "defined(/VipScore at (0x[0-9a-fA-F]{40})/.exec(deploy.std...",
    );
    expect(deploy.stdout).to.match(/^transaction\s+0x[0-9a-f]{64}$/m);
    expect(deploy.stdout).to.include(
      `journal               ${path.join(PROJECT_ROOT, "ignition", "deployments", `chain-${node.chainId}`)}`,
    );

    // A second run finds the journal: same address, nothing sent.
    const blockBefore = await provider.getBlockNumber();
    const again = await onRollup(["contract:deploy"]);
    expect(again.code, again.output).to.equal(0);
    expect(again.stdout).to.include(
      `already deployed      VipScore at ${address}`,
    );
    expect(await provider.getBlockNumber()).to.equal(blockBefore);

    const update = await onRollup([
      "scores:update",
      "--stage",
      "15",
      "--file",
      SAMPLE,
    ]);
    expect(update.code, update.output).to.equal(0);
    expect(update.stdout).to.match(
      /^sent\s+1,000 addresses in \d+ batch(?:es)? \(\d+ sent by this run, 0 found after a restart\), [\d,]+ gas, up to \d+ in flight$/m,
    );
    expect(update.stdout).to.match(
      /^verified\s+1,000 scores on chain equal .*sample-scores\.csv$/m,
    );
    // Not a terminal: progress comes as plain lines, the last one at the end.
    expect(update.stdout).to.match(
      /^progress: 1,000\/1,000 addresses, \d+ batches, [\d,]+ gas, ETA \d+ s$/m,
    );

    // Stage 15 is still running on the base chain's clock: refused, nothing
    // sent, the end named; once the clock passes it, finalized.
    const beforeEarly = await provider.getBlockNumber();
    const early = await onRollup(["stage:finalize", "--stage", "15"]);
    expect(early.code).to.not.equal(0);
    const notEnded = failure(early, ERRORS.CONTRACT.STAGES.STAGE_NOT_ENDED);
    expect(notEnded).to.match(/\b15\b/);
    expect(notEnded).to.match(/\d{4}-\d\d-\d\dT[\d:]+Z/);
    expect(notEnded).to.include("--force");
    expect(await provider.getBlockNumber()).to.equal(beforeEarly);
    baseChain.state.now = baseChain.state.stageEndTime + 1n;

    const finalize = await onRollup(["stage:finalize", "--stage", "15"]);
    expect(finalize.code, finalize.output).to.equal(0);
    expect(finalize.stdout).to.match(
      /^stage ended\s+stage 15 ended at .* on the base chain's clock \(1 s ago; the program's stage is 16\)$/m,
    );
    expect(finalize.stdout).to.match(/^open stage\s+16$/m);

    const score = VipScore__factory.connect(address, provider);
    expect(await score.openStage()).to.equal(16n);
    const stage = await score.stages(15n);
    expect(stage.isFinalized).to.equal(true);
    const entries = [...(await readScoreFile(SAMPLE)).table.entries()];
    expect(stage.totalScore).to.equal(
      entries.reduce((sum, e) => sum + e.score, 0n),
    );
    const page = await score.getScores(15n, 0n, 500n);
    expect(page.map((e) => [e.addr, e.amount])).to.deep.equal(
      entries.slice(0, 500).map((e) => [e.address, e.score]),
    );

    baseChain.state.stage = 16n;
    const status = await onRollup(["stage"]);
    expect(status.code, status.output).to.equal(0);
    expect(status.stdout).to.match(/^program stage\s+16 /m);
    expect(status.stdout).to.match(
      new RegExp(
        `^contract open stage\\s+16 \\(VipScore at ${address}\\)$`,
        "m",
      ),
    );
    expect(status.stderr).to.not.include("warning");
  });
});
