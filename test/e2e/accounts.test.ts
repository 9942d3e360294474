import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { defined } from "../../tasks/errors.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import {
  startRollupRestStandIn,
  type RollupRestStandIn,
} from "../../tasks/stand-ins/rollup-rest.js";
import { failure } from "../helpers/failure.js";
import {
  runHardhat,
  spawnHardhat,
  type CliResult,
} from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER, DEPLOYER_KEY } from "../helpers/keys.js";

const TEST_MNEMONIC =
  "test test test test test test test test test test test junk";
const DEPLOYER_INIT = "init17w0adeg64ky0daxwd2ugyuneellmjgnxdtmpqz";

/**
 * Runs the CLI with `input` on standard input (a pipe, as `echo … | npx hardhat
 * …`).
 */
async function withStdin(
  args: string[],
  env: Record<string, string>,
  input: string,
): Promise<CliResult> {
  const { child, result } = spawnHardhat(args, env);
  defined(child.stdin, "child.stdin").end(input);
  return result;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe("accounts", () => {
  let node: HardhatNode;
  let baseChain: L1RestStandIn;
  let rollupRest: RollupRestStandIn;
  let home: string;
  let homeEnv: Record<string, string>;

  before(async () => {
    [node, baseChain, rollupRest] = await Promise.all([
      startHardhatNode(),
      startL1RestStandIn(),
      startRollupRestStandIn(),
    ]);
    baseChain.state.balances[DEPLOYER_INIT] = [
      { denom: "uinit", amount: "2500000" },
    ];
    rollupRest.state.balances[DEPLOYER_INIT] = [
      {
        denom:
          "l2/2588fd87a8e081f6a557f43ff14f05dddf5e34cb27afcefd6eaf81f1daea30d0",
        amount: "7",
      },
    ];
    home = await mkdtemp(path.join(tmpdir(), "vip-accounts-home-"));
    homeEnv = {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, "config"),
      XDG_CACHE_HOME: path.join(home, "cache"),
      XDG_DATA_HOME: path.join(home, "data"),
    };
  });

  after(async () => {
    await Promise.all([node.close(), baseChain.close(), rollupRest.close()]);
    await rm(home, { recursive: true, force: true });
  });

  it("shows the signer as 0x… and init1…, its balances on the rollup and the base chain, and whether it is the operator", async () => {
    const result = await runHardhat(
      ["accounts", "--network", "rollup", "--operator", DEPLOYER_INIT],
      {
        JSON_RPC_URL: node.url,
        PRIVATE_KEY: DEPLOYER_KEY,
        L1_REST_URL: baseChain.url,
        ROLLUP_REST_URL: rollupRest.url,
      },
    );
    expect(result.code, result.output).to.equal(0);
    expect(result.stdout).to.match(
      new RegExp(`^deployer\\s+${DEPLOYER} \\(${DEPLOYER_INIT}\\)$`, "m"),
    );
    expect(result.stdout).to.match(
      /^rollup balance\s+10000\.0 \(native, EVM\)$/m,
    );
    expect(result.stdout).to.match(/^base chain coins\s+2500000uinit$/m);
    expect(result.stdout).to.match(/^rollup coins\s+7l2\/2588fd87a8e0\w+$/m);
    expect(result.stdout).to.include(
      "the deployer and the operator are the same key",
    );
  });

  it("recovers a key from a mnemonic on standard input into the keystore, never in clear, and the config then signs with it", async () => {
    const recover = await withStdin(
      ["accounts", "--recover", "--dev"],
      homeEnv,
      `${TEST_MNEMONIC}\n`,
    );
    expect(recover.code, recover.output).to.equal(0);
    expect(recover.stdout).to.include(
      `recovered ${DEPLOYER} (${DEPLOYER_INIT}) at m/44'/60'/0'/0/0, stored in the keystore as PRIVATE_KEY`,
    );
    expect(recover.output).to.not.include("junk");
    for (const file of await filesUnder(home)) {
      const text = (await readFile(file, "utf8")).toLowerCase();
      expect(
        text.includes(DEPLOYER_KEY.slice(2).toLowerCase()),
        `${file} holds the key in clear`,
      ).to.equal(false);
      expect(
        text.includes("test test test"),
        `${file} holds the mnemonic`,
      ).to.equal(false);
    }
    // No PRIVATE_KEY in the environment: the development keystore answers the
    // config's variable.
    const show = await runHardhat(["accounts", "--network", "rollup"], {
      ...homeEnv,
      JSON_RPC_URL: node.url,
    });
    expect(show.code, show.output).to.equal(0);
    expect(show.stdout).to.match(
      new RegExp(`^deployer\\s+${DEPLOYER} \\(${DEPLOYER_INIT}\\)$`, "m"),
    );

    const again = await withStdin(
      ["accounts", "--recover", "--dev"],
      homeEnv,
      `${TEST_MNEMONIC}\n`,
    );
    expect(again.code).to.not.equal(0);
    expect(
      failure(again, ERRORS.CONTRACT.ACCOUNTS.KEYSTORE_REFUSED),
    ).to.include("PRIVATE_KEY");
  });

  it("refuses a bad mnemonic without echoing it and stores nothing, and --create without a terminal", async () => {
    const env = {
      ...homeEnv,
      XDG_CONFIG_HOME: path.join(home, "other-config"),
    };
    const words = TEST_MNEMONIC.replace("junk", "test");
    const badChecksum = await withStdin(
      ["accounts", "--recover", "--dev", "--name", "OPERATOR_KEY"],
      env,
      words,
    );
    expect(badChecksum.code).to.not.equal(0);
    failure(badChecksum, ERRORS.CONTRACT.ACCOUNTS.MNEMONIC_CHECKSUM);
    const short = await withStdin(
      ["accounts", "--recover", "--dev"],
      env,
      "abandon abandon ability",
    );
    expect(
      failure(short, ERRORS.CONTRACT.ACCOUNTS.MNEMONIC_WORD_COUNT),
    ).to.match(/\b3\b/);
    expect(short.output).to.not.include("ability");
    const unknown = await withStdin(
      ["accounts", "--recover", "--dev"],
      env,
      TEST_MNEMONIC.replace("junk", "zzzyzx"),
    );
    expect(
      failure(unknown, ERRORS.CONTRACT.ACCOUNTS.MNEMONIC_UNKNOWN_WORDS),
    ).to.match(/^VIP-E\d+: 1\b/);
    expect(unknown.output).to.not.include("zzzyzx");
    const stored = await readdir(
      path.join(home, "other-config", "hardhat-nodejs"),
    ).catch(() => [] as string[]);
    expect(
      stored.filter((name) => name.includes("keystore")),
      "no keystore written",
    ).to.deep.equal([]);

    const create = await runHardhat(["accounts", "--create", "--dev"], env);
    expect(create.code).to.not.equal(0);
    expect(
      failure(create, ERRORS.CONTRACT.ACCOUNTS.CREATE_NEEDS_TERMINAL),
    ).to.include("--create");
  });

  it("names a Ledger account in both spellings and says how to sign with it", async () => {
    const result = await runHardhat(["accounts", "--ledger", DEPLOYER]);
    expect(result.code, result.output).to.equal(0);
    expect(result.stdout).to.include(
      `Ledger account ${DEPLOYER} (${DEPLOYER_INIT})`,
    );
    expect(result.stdout).to.include(`set LEDGER_ACCOUNT=${DEPLOYER}`);
  });
});
