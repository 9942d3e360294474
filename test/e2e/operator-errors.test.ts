import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { HardhatError } from "@nomicfoundation/hardhat-errors";
import { exists } from "@nomicfoundation/hardhat-utils/fs";
import { expect } from "chai";
import type { JsonRpcProvider } from "ethers";

import { ERRORS } from "../../tasks/error-catalog.js";
import { defined } from "../../tasks/errors.js";
import {
  startCometBftStandIn,
  type CometBftStandIn,
} from "../../tasks/stand-ins/cometbft.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import { startServer } from "../../tasks/stand-ins/server.js";
import { failure } from "../helpers/failure.js";
import {
  type CliResult,
  PROJECT_ROOT,
  runHardhat,
} from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER_KEY, OUTSIDER, OUTSIDER_KEY } from "../helpers/keys.js";
import { directProvider } from "../helpers/rig.js";

const SAMPLE = path.join(PROJECT_ROOT, "scripts", "sample-scores.csv");

describe("operator tasks refuse bad input and broken peers", () => {
  let node: HardhatNode;
  let cometbft: CometBftStandIn;
  let baseChain: L1RestStandIn;
  let env: Record<string, string>;
  let provider: JsonRpcProvider;
  let scratch: string;
  const onRollup = (
    args: string[],
    extra: Record<string, string | undefined> = {},
  ) => runHardhat([...args, "--network", "rollup"], { ...env, ...extra });

  /** Runs `args` and asserts no block was produced: nothing was sent. */
  async function sendsNothing(
    args: string[],
    extra: Record<string, string | undefined> = {},
  ): Promise<CliResult> {
    const before = await provider.getBlockNumber();
    const result = await onRollup(args, extra);
    expect(await provider.getBlockNumber(), "a block was produced").to.equal(
      before,
    );
    return result;
  }

  before(async () => {
    [node, cometbft, baseChain] = await Promise.all([
      startHardhatNode(),
      startCometBftStandIn(),
      startL1RestStandIn({ stage: 5n }),
    ]);
    env = {
      JSON_RPC_URL: node.url,
      PRIVATE_KEY: DEPLOYER_KEY,
      ROLLUP_RPC_URL: cometbft.url,
      L1_REST_URL: baseChain.url,
    };
    provider = directProvider(node);
    scratch = await mkdtemp(path.join(tmpdir(), "vip-errors-"));
    const deploy = await onRollup(["contract:deploy"], { START_STAGE: "5" });
    expect(deploy.code, deploy.output).to.equal(0);
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
    await rm(scratch, { recursive: true, force: true });
  });

  afterEach(() => {
    cometbft.state.mode = "ok";
    baseChain.state.mode = "ok";
    baseChain.state.stage = 5n;
  });

  describe("version", () => {
    it("reports each way the CometBFT RPC can fail", async () => {
      for (const [mode, expected, what] of [
        ["not-json", ERRORS.NETWORK.HTTP.NOT_JSON, "<html>gateway</html>"],
        ["rpc-error", ERRORS.NETWORK.HTTP.JSON_RPC_ERROR, "-32603"],
        [
          "missing-field",
          ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER,
          "result.response.version",
        ],
      ] as const) {
        cometbft.state.mode = mode;
        const message = failure(await onRollup(["version"]), expected);
        expect(message, mode).to.include(`${cometbft.url}/abci_info`);
        expect(message, mode).to.include(what);
      }
    });

    it("names an unreachable RPC", async () => {
      const closed = await startServer(() => ({ status: 200, body: "{}" }));
      await closed.close();
      const message = failure(
        await onRollup(["version"], { ROLLUP_RPC_URL: closed.url }),
        ERRORS.NETWORK.HTTP.UNREACHABLE,
      );
      expect(message).to.include(`${closed.url}/abci_info`);
      expect(message).to.include("ECONNREFUSED");
    });

    it("says what to set when ROLLUP_RPC_URL is missing or malformed", async () => {
      expect(
        failure(
          await onRollup(["version"], { ROLLUP_RPC_URL: undefined }),
          ERRORS.CONFIG.SETTINGS.SETTING_NOT_SET,
        ),
      ).to.include("ROLLUP_RPC_URL");
      expect(
        failure(
          await onRollup(["version"], { ROLLUP_RPC_URL: "localhost:26657 " }),
          ERRORS.CONFIG.SETTINGS.SETTING_NOT_HTTP,
        ),
      ).to.include("ROLLUP_RPC_URL");
    });

    it("compares the node CLI on PATH with the chain's version", async () => {
      const bin = await mkdtemp(path.join(scratch, "bin-"));
      const cli = path.join(bin, "minitiad");
      const withCli = (printed: string) =>
        writeFile(
          cli,
          `#!/bin/sh\n[ "$1" = version ] && echo ${printed}\n`,
        ).then(() => chmod(cli, 0o755));

      await withCli("1.0.2");
      const match = await onRollup(["version"], {
        PATH: `${bin}:${process.env.PATH}`,
      });
      expect(match.code, match.output).to.equal(0);
      expect(match.stdout).to.match(
        /^minitiad on PATH\s+1\.0\.2 \(matches\)$/m,
      );

      await withCli("v1.0.1");
      const message = failure(
        await onRollup(["version"], { PATH: `${bin}:${process.env.PATH}` }),
        ERRORS.CONFIG.TOOLS.NODE_CLI_VERSION_MISMATCH,
      );
      expect(message).to.include(cli);
      expect(message).to.include("v1.0.1");
      expect(message).to.include("v1.0.2");
    });
  });

  describe("read-only tasks", () => {
    it("need no key: version, chain-id, stage and scores:verify run without PRIVATE_KEY, while a task that signs names it", async () => {
      const noKey = { PRIVATE_KEY: undefined };
      const reads = [
        ["version"],
        ["chain-id"],
        ["stage"],
        ["scores:verify", "--stage", "5", "--file", SAMPLE],
      ];
      const results = await Promise.all(
        reads.map((task) => onRollup(task, noKey)),
      );
      for (const [i, result] of results.entries()) {
        expect(
          result.output,
          defined(reads[i], "reads[i]").join(" "),
        ).not.to.match(/PRIVATE_KEY|HHE7/);
        // scores:verify fails on its own account here: stage 5 holds none of
        // the sample's scores.
        if (i < 3)
          expect(
            result.code,
            `${defined(reads[i], "reads[i]").join(" ")}: ${result.output}`,
          ).to.equal(0);
      }
      expect(
        failure(
          defined(results[3], "results[3]"),
          ERRORS.SCORES.PUSH.CHAIN_DIFFERS,
        ),
      ).to.include(SAMPLE);
      expect(defined(results[1], "results[1]").stdout).to.match(
        new RegExp(`^EVM chain id\\s+${node.chainId}\\b`, "m"),
      );
      const sending = await sendsNothing(
        ["stage:finalize", "--stage", "5"],
        noKey,
      );
      expect(failure(sending, ERRORS.CONTRACT.ACCOUNTS.KEY_NOT_SET)).to.include(
        "PRIVATE_KEY",
      );
    });
  });

  describe("scores:index", () => {
    it("refuses a JSON_RPC_URL that is not a URL by the network's name, never quoting it, and writes no index", async () => {
      const dataDir = path.join(scratch, "index-bad-url");
      const result = await onRollup(
        [
          "scores:index",
          "--policy",
          path.join(
            PROJECT_ROOT,
            "scripts",
            "sample-policy",
            "perp-volume.sql",
          ),
          "--data-dir",
          dataDir,
        ],
        { JSON_RPC_URL: "rpc.example.com/v1/KEY-IN-PATH" },
      );
      expect(
        failure(result, ERRORS.CONFIG.SETTINGS.NETWORK_URL_INVALID),
      ).to.include('network "rollup"');
      expect(result.output).to.not.include("KEY-IN-PATH");
      expect(await exists(dataDir), "an index was written").to.equal(false);
    });
  });

  describe("chain-id", () => {
    it("works without the CometBFT RPC, and says the registry rule was not checked", async () => {
      const result = await onRollup(["chain-id"], {
        ROLLUP_RPC_URL: undefined,
      });
      expect(result.code, result.output).to.equal(0);
      expect(result.stdout).to.include(
        "Cosmos chain id unknown: set ROLLUP_RPC_URL to check the registry rule",
      );
    });

    it("warns when the registry rule does not hold for the Cosmos chain id", async () => {
      const result = await onRollup(["chain-id"]);
      expect(result.code, result.output).to.equal(0);
      expect(result.stderr).to.match(
        new RegExp(
          `warning: the registry rule does not hold: keccak256\\("rehearsal-1"\\)\\[0\\.\\.8\\] mod 4503599627370476 = 3038145510128893, not ${node.chainId}`,
        ),
      );
    });
  });

  describe("stage", () => {
    it("warns when the contract lags the program", async () => {
      baseChain.state.stage = 7n;
      const result = await onRollup(["stage"]);
      expect(result.code, result.output).to.equal(0);
      expect(result.stdout).to.match(/^contract open stage\s+5 /m);
      expect(result.stderr).to.include(
        "warning: the contract lags the program by 2 stage(s): the program snapshots finalized stages in order, so finalize stage 5 through 6, one at a time (npx hardhat stage:finalize --stage 5 --network rollup; stage:autopilot does it unattended)",
      );
    });

    it("reports a module store that is not there, and a malformed one", async () => {
      baseChain.state.mode = "not-found";
      expect(
        failure(
          await onRollup(["stage"]),
          ERRORS.NETWORK.PROGRAM.VIP_MODULE_STORE_NOT_FOUND,
        ),
      ).to.include("0x3a886b32");
      baseChain.state.mode = "missing-field";
      expect(
        failure(
          await onRollup(["stage"]),
          ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER,
        ),
      ).to.include("data.stage");
      expect(
        failure(
          await onRollup(["stage"], { VIP_MODULE_ADDRESS: "0xnothex" }),
          ERRORS.CONFIG.SETTINGS.MODULE_ADDRESS_INVALID,
        ),
      ).to.include('"rollup"');
    });
  });

  describe("deploy", () => {
    it("refuses a START_STAGE that contradicts the journal, or is not a stage", async () => {
      const mismatch = failure(
        await sendsNothing(["contract:deploy"], { START_STAGE: "9" }),
        ERRORS.CONTRACT.DEPLOYMENT.START_STAGE_MISMATCH,
      );
      expect(mismatch).to.include(`chain-${node.chainId}`);
      expect(mismatch).to.match(/\b5\b/);
      expect(mismatch).to.match(/\b9\b/);
      const invalid = failure(
        await sendsNothing(["contract:deploy", "--deployment-id", "fresh"], {
          START_STAGE: "abc",
        }),
        ERRORS.CONTRACT.DEPLOYMENT.START_STAGE_INVALID,
      );
      expect(invalid).to.include("START_STAGE");
      expect(invalid).to.include('"abc"');
    });
  });

  describe("scores:update and stage:finalize", () => {
    it("validates the whole file first: every problem with its line, and nothing sent", async () => {
      const file = path.join(scratch, "bad.csv");
      await writeFile(
        file,
        "address,score\n0x5721c8e66caa2395bcd310e5c5ddd1f3be0b8795,1\n0x123,2\n0x5721c8e66caa2395bcd310e5c5ddd1f3be0b8796,-1\n",
      );
      const result = await sendsNothing([
        "scores:update",
        "--stage",
        "5",
        "--file",
        file,
      ]);
      const message = failure(result, ERRORS.SCORES.FILE.INVALID_FILE);
      expect(message).to.include(`${file} has 2 `);
      // Every problem with its line, and only those.
      const problems = result.output
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line.startsWith(`${file}:`));
      expect(problems, result.output).to.have.length(2);
      expect(problems[0]).to.match(new RegExp(`^${file}:3: .*"0x123"`));
      expect(problems[1]).to.match(new RegExp(`^${file}:4: .*-1\\b`));
    });

    it("requires --stage and --file, and a stage number", async () => {
      expect(
        failure(
          await sendsNothing(["scores:update", "--file", SAMPLE]),
          ERRORS.CONFIG.OPTIONS.OPTION_REQUIRED,
        ),
      ).to.include("--stage");
      expect(
        failure(
          await sendsNothing(["scores:update", "--stage", "5"]),
          ERRORS.CONFIG.OPTIONS.OPTION_REQUIRED,
        ),
      ).to.include("--file");
      expect(
        failure(
          await sendsNothing(["scores:verify", "--stage", "5"]),
          ERRORS.CONFIG.OPTIONS.OPTION_REQUIRED,
        ),
      ).to.include("--file");
      // Hardhat's own parser refuses a negative INT before the task runs.
      const negative = await sendsNothing([
        "scores:update",
        "--stage",
        "5",
        "--file",
        SAMPLE,
        "--batch-size",
        "-3",
      ]);
      expect(negative.code).to.not.equal(0);
      expect(negative.output).to.include(
        `HHE${HardhatError.ERRORS.CORE.ARGUMENTS.INVALID_VALUE_FOR_TYPE.number}`,
      );
      expect(negative.output).to.include('"-3"');
      expect(negative.output).to.include('"batchSize"');
      expect(
        failure(
          await sendsNothing(["stage:finalize", "--stage", "five"]),
          ERRORS.CONTRACT.STAGES.STAGE_NOT_NUMBER,
        ),
      ).to.include("five");
    });

    it("refuses a stage that is not the open one, before sending", async () => {
      const notOpen = failure(
        await sendsNothing(["scores:update", "--stage", "6", "--file", SAMPLE]),
        ERRORS.CONTRACT.STAGES.STAGE_NOT_OPEN,
      );
      expect(notOpen).to.match(/\b6\b/);
      expect(notOpen).to.match(/\b5\b/);
      const beforeStart = failure(
        await sendsNothing(["stage:finalize", "--stage", "4"]),
        ERRORS.CONTRACT.STAGES.STAGE_BEFORE_START,
      );
      expect(beforeStart).to.match(/\b4\b/);
      expect(beforeStart).to.match(/\b5\b/);
    });

    it("refuses a signer that is not on the allow list, before sending", async () => {
      const message = failure(
        await sendsNothing(["stage:finalize", "--stage", "5"], {
          PRIVATE_KEY: OUTSIDER_KEY,
        }),
        ERRORS.CONTRACT.ALLOW_LIST.SIGNER_NOT_ALLOWED,
      );
      expect(message).to.include(OUTSIDER);
      expect(message).to.match(/0x[0-9a-fA-F]{40}/);
    });

    it("plans without sending on --dry-run", async () => {
      const result = await sendsNothing([
        "scores:update",
        "--stage",
        "5",
        "--file",
        SAMPLE,
        "--dry-run",
      ]);
      expect(result.code, result.output).to.equal(0);
      expect(result.stdout).to.match(
        /^plan\s+\d+ batch(?:es)? of up to \d+ addresses/m,
      );
      expect(result.stdout).to.include("dry run: nothing was sent");
    });

    it("names a missing deployment, an address without code, and a missing key", async () => {
      const noDeployment = failure(
        await sendsNothing([
          "stage:finalize",
          "--stage",
          "5",
          "--deployment-id",
          "nothing-here",
        ]),
        ERRORS.CONTRACT.DEPLOYMENT.NO_DEPLOYMENT,
      );
      expect(noDeployment).to.include(String(node.chainId));
      expect(noDeployment).to.include(
        path.join("nothing-here", "deployed_addresses.json"),
      );
      // Ignition's record cut short (a disk that filled, a hand edit): named,
      // with the way out, and nothing sent.
      const broken = path.join(
        PROJECT_ROOT,
        "ignition",
        "deployments",
        "vip-test-broken-record",
      );
      try {
        await mkdir(broken, { recursive: true });
        const record = path.join(broken, "deployed_addresses.json");
        await writeFile(record, '{\n  "VipScore#VipScore": "0x5FbDB23');
        const unreadable = failure(
          await sendsNothing([
            "stage:finalize",
            "--stage",
            "5",
            "--deployment-id",
            "vip-test-broken-record",
          ]),
          ERRORS.CONTRACT.DEPLOYMENT.DEPLOYMENT_RECORD_UNREADABLE,
        );
        expect(unreadable).to.include(record);
        expect(unreadable).to.include("--contract");
      } finally {
        await rm(broken, { recursive: true, force: true });
      }
      const noCode = failure(
        await sendsNothing([
          "stage:finalize",
          "--stage",
          "5",
          "--contract",
          OUTSIDER,
        ]),
        ERRORS.CONTRACT.DEPLOYMENT.NO_CODE,
      );
      expect(noCode).to.include(OUTSIDER);
      expect(noCode).to.include("--contract");
      expect(noCode).to.include('"rollup"');
      const noKey = await sendsNothing(["stage:finalize", "--stage", "5"], {
        PRIVATE_KEY: undefined,
      });
      expect(noKey.code).to.not.equal(0);
      const message = failure(noKey, ERRORS.CONTRACT.ACCOUNTS.KEY_NOT_SET);
      expect(message).to.include('"rollup"');
      expect(message).to.include("PRIVATE_KEY");
    });
  });
});
