import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import type { JsonRpcProvider } from "ethers";

import {
  startCometBftStandIn,
  type CometBftStandIn,
} from "../../tasks/stand-ins/cometbft.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import { startServer } from "../../tasks/stand-ins/server.js";
import {
  type CliResult,
  PROJECT_ROOT,
  runHardhat,
} from "../helpers/hardhat-cli.js";
import { failure } from "../helpers/failure.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import { directProvider } from "../helpers/rig.js";
import { DEPLOYER_KEY, OUTSIDER, OUTSIDER_KEY } from "../helpers/keys.js";
import { defined } from "../../tasks/errors.js";

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
      for (const [mode, message] of [
        [
          "not-json",
          `${cometbft.url}/abci_info did not answer JSON: <html>gateway</html>`,
        ],
        [
          "rpc-error",
          `abci_info at ${cometbft.url}/abci_info answered JSON-RPC error -32603: Internal error`,
        ],
        [
          "missing-field",
          `abci_info at ${cometbft.url}/abci_info: result.response.version is missing`,
        ],
      ] as const) {
        cometbft.state.mode = mode;
        expect(failure(await onRollup(["version"])), mode).to.equal(message);
      }
    });

    it("names an unreachable RPC", async () => {
      const closed = await startServer(() => ({ status: 200, body: "{}" }));
      await closed.close();
      expect(
        failure(await onRollup(["version"], { ROLLUP_RPC_URL: closed.url })),
      ).to.equal(`cannot reach ${closed.url}/abci_info: ECONNREFUSED`);
    });

    it("says what to set when ROLLUP_RPC_URL is missing or malformed", async () => {
      expect(
        failure(await onRollup(["version"], { ROLLUP_RPC_URL: undefined })),
      ).to.match(
        /^vip\.rollupRpcUrl of network "rollup" is not set: set ROLLUP_RPC_URL to the rollup's CometBFT RPC/,
      );
      expect(
        failure(
          await onRollup(["version"], { ROLLUP_RPC_URL: "localhost:26657 " }),
        ),
      ).to.match(
        /^vip\.rollupRpcUrl of network "rollup" is not a valid URL \(it needs http:\/\/ or https:\/\/\): set ROLLUP_RPC_URL/,
      );
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
      expect(
        failure(
          await onRollup(["version"], { PATH: `${bin}:${process.env.PATH}` }),
        ),
      ).to.equal(
        `minitiad on PATH (${cli}) is v1.0.1, but the rollup runs v1.0.2: install minitiad v1.0.2`,
      );
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
      expect(defined(results[3], "results[3]").output).to.match(
        /stage 5 on chain differs from .*sample-scores\.csv in [\d,]+ score\(s\)/,
      );
      expect(defined(results[1], "results[1]").stdout).to.match(
        new RegExp(`^EVM chain id\\s+${node.chainId}\\b`, "m"),
      );
      const sending = await sendsNothing(
        ["stage:finalize", "--stage", "5"],
        noKey,
      );
      expect(sending.code).to.not.equal(0);
      expect(sending.output).to.include("PRIVATE_KEY");
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
      expect(failure(await onRollup(["stage"]))).to.match(
        /^the VIP module store was not found at 0x3a886b32/,
      );
      baseChain.state.mode = "missing-field";
      expect(failure(await onRollup(["stage"]))).to.match(
        /: data\.stage is missing$/,
      );
      expect(
        failure(await onRollup(["stage"], { VIP_MODULE_ADDRESS: "0xnothex" })),
      ).to.match(
        /^vip\.vipModuleAddress of network "rollup" is not a Move address/,
      );
    });
  });

  describe("deploy", () => {
    it("refuses a START_STAGE that contradicts the journal, or is not a stage", async () => {
      expect(
        failure(await sendsNothing(["contract:deploy"], { START_STAGE: "9" })),
      ).to.match(
        /^the deployment in .*chain-\d+ was started with start stage 5, but START_STAGE is 9: drop START_STAGE to resume it, or pass --deployment-id <new id>/,
      );
      expect(
        failure(
          await sendsNothing(["contract:deploy", "--deployment-id", "fresh"], {
            START_STAGE: "abc",
          }),
        ),
      ).to.equal(
        'START_STAGE "abc" is not a stage number (a whole number from 1 to 2^64 - 1)',
      );
    });
  });

  describe("scores:update and stage:finalize", () => {
    it("validates the whole file first: every problem with its line, and nothing sent", async () => {
      const file = path.join(scratch, "bad.csv");
      await writeFile(
        file,
        "address,score\n0x5721c8e66caa2395bcd310e5c5ddd1f3be0b8795,1\n0x123,2\n0x5721c8e66caa2395bcd310e5c5ddd1f3be0b8796,-1\n",
      );
      const message = failure(
        await sendsNothing(["scores:update", "--stage", "5", "--file", file]),
      );
      expect(message).to.equal(`${file} has 2 problem(s); nothing was sent:`);
      const result = await onRollup([
        "scores:update",
        "--stage",
        "5",
        "--file",
        file,
      ]);
      expect(result.output).to.include(
        `${file}:3: address "0x123" is not 0x followed by 40 hex digits`,
      );
      expect(result.output).to.include(`${file}:4: score -1 is negative`);
    });

    it("requires --stage and --file, and a stage number", async () => {
      expect(
        failure(await sendsNothing(["scores:update", "--file", SAMPLE])),
      ).to.match(/^--stage is required/);
      expect(
        failure(await sendsNothing(["scores:update", "--stage", "5"])),
      ).to.match(/^--file is required/);
      expect(
        failure(await sendsNothing(["scores:verify", "--stage", "5"])),
      ).to.match(/^--file is required: the score file the stage should hold$/);
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
        'Invalid value "-3" for argument "batchSize" of type "INT"',
      );
      expect(
        failure(await sendsNothing(["stage:finalize", "--stage", "five"])),
      ).to.equal(
        "--stage five is not a stage number (a positive whole number)",
      );
    });

    it("refuses a stage that is not the open one, before sending", async () => {
      expect(
        failure(
          await sendsNothing([
            "scores:update",
            "--stage",
            "6",
            "--file",
            SAMPLE,
          ]),
        ),
      ).to.equal(
        "stage 6 is not open yet: the contract's open stage is 5. Check --stage: npx hardhat stage --network rollup shows the contract's open stage beside the base chain's",
      );
      expect(
        failure(await sendsNothing(["stage:finalize", "--stage", "4"])),
      ).to.equal(
        "stage 4 precedes the contract's start stage 5; the open stage is 5",
      );
    });

    it("refuses a signer that is not on the allow list, before sending", async () => {
      expect(
        failure(
          await sendsNothing(["stage:finalize", "--stage", "5"], {
            PRIVATE_KEY: OUTSIDER_KEY,
          }),
        ),
      ).to.match(
        new RegExp(
          `^the signer ${OUTSIDER} is not on the allow list of 0x[0-9a-fA-F]{40}: an allowed account must add it \\(npx hardhat allowlist:add --address ${OUTSIDER} --network rollup, signed with an allowed key\\)$`,
        ),
      );
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
        /^plan\s+\d+ batch\(es\) of up to \d+ addresses/m,
      );
      expect(result.stdout).to.include("dry run: nothing was sent");
    });

    it("names a missing deployment, an address without code, and a missing key", async () => {
      expect(
        failure(
          await sendsNothing([
            "stage:finalize",
            "--stage",
            "5",
            "--deployment-id",
            "nothing-here",
          ]),
        ),
      ).to.match(
        /^no VipScore deployment found for chain \d+ \(.*nothing-here\/deployed_addresses\.json\): run `npx hardhat contract:deploy --network rollup` first, or pass --contract <address>$/,
      );
      expect(
        failure(
          await sendsNothing([
            "stage:finalize",
            "--stage",
            "5",
            "--contract",
            OUTSIDER,
          ]),
        ),
      ).to.match(
        new RegExp(
          `^no contract code at ${OUTSIDER} \\(from --contract\\) on network "rollup"`,
        ),
      );
      const noKey = await sendsNothing(["stage:finalize", "--stage", "5"], {
        PRIVATE_KEY: undefined,
      });
      expect(noKey.code).to.not.equal(0);
      expect(failure(noKey)).to.match(
        /^network "rollup" has no key to sign with: PRIVATE_KEY is not set\. Set it with `npx hardhat keystore set PRIVATE_KEY`/,
      );
    });
  });
});
