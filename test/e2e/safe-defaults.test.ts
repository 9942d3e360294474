import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import type { JsonRpcProvider } from "ethers";

import { ERRORS } from "../../tasks/error-catalog.js";
import { errorCode } from "../../tasks/errors.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
import { failure } from "../helpers/failure.js";
import {
  HARDHAT_CLI,
  PROJECT_ROOT,
  runHardhat,
} from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import {
  DEPLOYER,
  DEPLOYER_KEY,
  OUTSIDER,
  OUTSIDER_KEY,
} from "../helpers/keys.js";
import { deployVipScore, directProvider } from "../helpers/rig.js";

const SAMPLE = path.join(PROJECT_ROOT, "scripts", "sample-scores.csv");

describe("safe by default on a first real rollup", () => {
  describe("a network that is not a rollup", () => {
    // A config beside the project's own, with an HTTP network that has no vip
    // block: the refusal comes before any connection, so its URL is never
    // dialled.
    const otherConfig = path.join(
      PROJECT_ROOT,
      "hardhat.no-vip.test.config.ts",
    );
    before(async () => {
      await writeFile(
        otherConfig,
        `import hardhatToolboxMochaEthers from "@nomicfoundation/hardhat-toolbox-mocha-ethers";
import { defineConfig } from "hardhat/config";
import vipScorePlugin from "./tasks/index.js";
export default defineConfig({
  plugins: [hardhatToolboxMochaEthers, vipScorePlugin],
  networks: {
    sepolia: { type: "http", url: "http://127.0.0.1:9" },
    rollup: { type: "http", url: "http://127.0.0.1:9", vip: { l1RestUrl: "http://127.0.0.1:9" } },
  },
});
`,
      );
    });
    after(() => rm(otherConfig, { force: true }));

    it("refuses contract:deploy and scores:update on the in-process network, naming the --network to add", async () => {
      for (const args of [
        ["contract:deploy"],
        ["scores:update", "--stage", "15", "--file", SAMPLE],
        ["stage:finalize", "--stage", "15"],
        ["allowlist:add", "--address", OUTSIDER],
      ]) {
        const message = failure(
          await runHardhat(args, {
            START_STAGE: "15",
            PRIVATE_KEY: DEPLOYER_KEY,
          }),
          ERRORS.NETWORK.TASK_NETWORK.IN_PROCESS_NETWORK,
        );
        expect(message, args[0]).to.include('"default"');
        expect(message, args[0]).to.include("--network rollup");
      }
    });

    it("refuses a network without vip settings of its own, and names the ones that have them", async () => {
      const message = failure(
        await runHardhat(
          ["--config", otherConfig, "contract:deploy", "--network", "sepolia"],
          { START_STAGE: "15", PRIVATE_KEY: DEPLOYER_KEY },
        ),
        ERRORS.NETWORK.TASK_NETWORK.NOT_A_ROLLUP_NETWORK,
      );
      expect(message).to.include('"sepolia"');
      expect(message).to.include("--network rollup");
    });

    it("still shows a chain id on any network: it sends nothing", async () => {
      const result = await runHardhat(["chain-id"]);
      expect(result.code, result.output).to.equal(0);
      expect(result.stdout).to.match(/^EVM chain id\s+31337\b/m);
    });
  });

  describe("required options", () => {
    it("say so in --help", async () => {
      const help = await runHardhat(["scores:update", "--help"]);
      expect(help.code, help.output).to.equal(0);
      expect(help.stdout).to.match(
        /^ {2}--stage\s+Required: the stage number/m,
      );
      expect(help.stdout).to.match(/^ {2}--file\s+Required: the score file/m);
      expect(help.stdout).to.match(/^ {2}--dry-run\s+Validate/m);
      const finalize = await runHardhat(["allowlist:add", "--help"]);
      expect(finalize.stdout).to.match(/^ {2}--address\s+Required: /m);
    });

    it("fail in one line naming the option when missing, in the words of its --help", async () => {
      const result = await runHardhat(
        ["scores:update", "--stage", "15", "--network", "rollup"],
        { JSON_RPC_URL: "http://127.0.0.1:9" },
      );
      expect(failure(result, ERRORS.CONFIG.OPTIONS.OPTION_REQUIRED)).to.include(
        "--file",
      );
      const address = await runHardhat(
        ["allowlist:add", "--network", "rollup"],
        {
          JSON_RPC_URL: "http://127.0.0.1:9",
        },
      );
      expect(
        failure(address, ERRORS.CONFIG.OPTIONS.OPTION_REQUIRED),
      ).to.include("--address");
    });
  });

  describe("on a hardhat node", () => {
    let node: HardhatNode;
    let baseChain: L1RestStandIn;
    let provider: JsonRpcProvider;
    let score: VipScore;
    let env: Record<string, string>;
    const onRollup = (
      args: string[],
      extra: Record<string, string | undefined> = {},
    ) =>
      runHardhat([...args, "--network", "rollup", "--contract", contract], {
        ...env,
        ...extra,
      });
    let contract: string;

    /** Runs `args` and asserts no block was produced: nothing was sent. */
    async function sendsNothing(
      args: string[],
      extra: Record<string, string | undefined> = {},
    ) {
      const before = await provider.getBlockNumber();
      const result = await onRollup(args, extra);
      expect(await provider.getBlockNumber(), "a block was produced").to.equal(
        before,
      );
      return result;
    }

    before(async () => {
      [node, baseChain] = await Promise.all([
        startHardhatNode(),
        startL1RestStandIn({ stage: 4n }),
      ]);
      provider = directProvider(node);
      score = await deployVipScore(provider, 4n);
      contract = await score.getAddress();
      env = {
        JSON_RPC_URL: node.url,
        PRIVATE_KEY: DEPLOYER_KEY,
        L1_REST_URL: baseChain.url,
      };
    });

    after(async () => {
      await Promise.all([node.close(), baseChain.close()]);
    });

    it("allowlist:add and allowlist:remove follow the contract's rules, and refuse what it would refuse without sending", async () => {
      const added = await onRollup(["allowlist:add", "--address", OUTSIDER]);
      expect(added.code, added.output).to.equal(0);
      expect(added.stdout).to.match(
        new RegExp(
          `^allowed\\s+${OUTSIDER} on ${contract} in tx 0x[0-9a-f]{64}`,
          "m",
        ),
      );
      expect(await score.allowList(OUTSIDER)).to.equal(true);

      const again = await sendsNothing([
        "allowlist:add",
        "--address",
        OUTSIDER,
      ]);
      expect(again.code, again.output).to.equal(0);
      expect(again.stdout).to.match(/^already allowed\s+.*nothing was sent$/m);

      expect(
        failure(
          await sendsNothing(["allowlist:add", "--address", "0x1234"]),
          ERRORS.CONTRACT.ACCOUNTS.NOT_AN_ADDRESS,
        ),
      ).to.include("--address 0x1234");

      // The outsider, now allowed, removes the deployer (journalled where
      // --journal-dir says); the last address left cannot go.
      const journals = await mkdtemp(path.join(tmpdir(), "vip-allowlist-"));
      const removed = await onRollup(
        ["allowlist:remove", "--address", DEPLOYER, "--journal-dir", journals],
        {
          PRIVATE_KEY: OUTSIDER_KEY,
        },
      );
      expect(removed.code, removed.output).to.equal(0);
      expect(removed.stdout).to.match(/^allow list\s+1 address$/m);
      expect(await score.allowList(DEPLOYER)).to.equal(false);
      const journal = await readFile(
        path.join(
          journals,
          `chain-${(await provider.getNetwork()).chainId}`,
          contract.toLowerCase(),
          `allowlist-remove-${DEPLOYER.toLowerCase()}.jsonl`,
        ),
        "utf8",
      );
      expect(journal).to.match(/"type":"confirmed"/);
      await rm(journals, { recursive: true, force: true });

      const last = failure(
        await sendsNothing(["allowlist:remove", "--address", OUTSIDER], {
          PRIVATE_KEY: OUTSIDER_KEY,
        }),
        ERRORS.CONTRACT.ALLOW_LIST.LAST_ALLOWED,
      );
      expect(last).to.include(OUTSIDER);
      expect(last).to.include(contract);
      // The deployer is no longer allowed: it cannot change the list, and the
      // push's advice names the task that can put it back.
      const cannotChange = failure(
        await sendsNothing(["allowlist:add", "--address", DEPLOYER]),
        ERRORS.CONTRACT.ALLOW_LIST.SIGNER_CANNOT_CHANGE_ALLOW_LIST,
      );
      expect(cannotChange).to.include(DEPLOYER);
      expect(cannotChange).to.include(contract);
      const notAllowed = failure(
        await sendsNothing(["scores:update", "--stage", "4", "--file", SAMPLE]),
        ERRORS.CONTRACT.ALLOW_LIST.SIGNER_NOT_ALLOWED,
      );
      expect(notAllowed).to.include(DEPLOYER);
      expect(notAllowed).to.include(contract);
      const back = await onRollup(["allowlist:add", "--address", DEPLOYER], {
        PRIVATE_KEY: OUTSIDER_KEY,
      });
      expect(back.code, back.output).to.equal(0);
      expect(await score.allowList(DEPLOYER)).to.equal(true);
    });

    it("stage:finalize refuses a stage that has not ended on the base chain, finalizes it with --force, and never asks a script", async () => {
      const early = failure(
        await sendsNothing(["stage:finalize", "--stage", "4"]),
        ERRORS.CONTRACT.STAGES.STAGE_NOT_ENDED,
      );
      expect(early).to.match(/\b4\b/);
      expect(early).to.match(/\d{4}-\d\d-\d\dT\S+Z/);
      expect(await score.openStage()).to.equal(4n);

      // Standard input is not a terminal here: --force goes ahead without a
      // question, warning that the stage was still running.
      const forced = await onRollup([
        "stage:finalize",
        "--stage",
        "4",
        "--force",
      ]);
      expect(forced.code, forced.output).to.equal(0);
      expect(forced.stderr).to.match(
        /warning: stage 4 has not ended on the base chain: .*; finalizing it anyway \(--force\)/,
      );
      expect(await score.openStage()).to.equal(5n);
    });

    it("stage:finalize asks on a terminal, and a no sends nothing", async () => {
      // Stage 5 has ended once the base chain's clock passes its projected end.
      baseChain.state.now = baseChain.state.stageEndTime + 86_400n + 1n;
      const before = await provider.getBlockNumber();
      const answer = await onTerminal(
        [
          "stage:finalize",
          "--stage",
          "5",
          "--network",
          "rollup",
          "--contract",
          contract,
        ],
        env,
        "n\n",
      );
      expect(answer.output).to.include(
        `Finalize stage 5 of ${contract} on network "rollup"? This cannot be undone`,
      );
      expect(answer.output).to.include(
        `${errorCode(ERRORS.AUTOPILOT.PASSES.FINALIZE_DECLINED)}: `,
      );
      expect(answer.code).to.not.equal(0);
      expect(await provider.getBlockNumber()).to.equal(before);
      expect(await score.openStage()).to.equal(5n);

      const yes = await onRollup(["stage:finalize", "--stage", "5", "--yes"]);
      expect(yes.code, yes.output).to.equal(0);
      expect(await score.openStage()).to.equal(6n);
    });
  });
});

/**
 * Runs the CLI with a terminal as its standard input (util-linux's `script`
 * allocates one), typing `input` into it.
 */
async function onTerminal(
  args: string[],
  env: Record<string, string>,
  input: string,
): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, HARDHAT_CLI, ...args, "--no-typechain"]
    .map((word) => `'${word.replaceAll("'", "'\\''")}'`)
    .join(" ");
  const child = spawn("script", ["-qec", command, "/dev/null"], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    // Answer once the question is on the screen.
    if (/\(y\/N\)/.test(output) && input !== "") {
      child.stdin.write(input);
      input = "";
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) =>
    child.on("close", resolve),
  );
  return { code, output };
}
