import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { registryEvmChainId } from "../../tasks/registry/evm-chain-id.js";
import { l2Denom } from "../../tasks/registry/op-denom.js";
import {
  startCometBftStandIn,
  type CometBftStandIn,
} from "../../tasks/stand-ins/cometbft.js";
import {
  startRollupRestStandIn,
  type RollupRestStandIn,
} from "../../tasks/stand-ins/rollup-rest.js";
import { failure } from "../helpers/failure.js";
import { PROJECT_ROOT, runHardhat } from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER_KEY } from "../helpers/keys.js";

const EXAMPLE = path.join(
  PROJECT_ROOT,
  "scripts",
  "examples",
  "registry-input.json",
);
const COSMOS_CHAIN_ID = "rehearsal-1";

describe("registry:entry and registry:check", () => {
  let node: HardhatNode;
  let cometbft: CometBftStandIn;
  let rollupRest: RollupRestStandIn;
  let registry: string;
  let env: Record<string, string>;
  const entryDir = () => path.join(registry, "mainnets", "rehearsal");

  before(async () => {
    // A node whose EVM chain id follows the registry's rule for the Cosmos
    // chain id, as a real rollup's does.
    [node, cometbft, rollupRest] = await Promise.all([
      startHardhatNode({ chainId: registryEvmChainId(COSMOS_CHAIN_ID) }),
      startCometBftStandIn({ network: COSMOS_CHAIN_ID }),
      startRollupRestStandIn({ bridgeId: 16n }),
    ]);
    env = {
      JSON_RPC_URL: node.url,
      PRIVATE_KEY: DEPLOYER_KEY,
      ROLLUP_RPC_URL: cometbft.url,
      ROLLUP_REST_URL: rollupRest.url,
    };
    registry = await mkdtemp(path.join(tmpdir(), "vip-registry-"));
  });

  after(async () => {
    await Promise.all([node.close(), cometbft.close(), rollupRest.close()]);
    await rm(registry, { recursive: true, force: true });
  });

  it("writes the entry from the rollup's answers and the input file, and registry:check passes it", async () => {
    const result = await runHardhat(
      [
        "registry:entry",
        "--network",
        "rollup",
        "--registry",
        registry,
        "--input",
        EXAMPLE,
      ],
      env,
    );
    expect(result.code, result.output).to.equal(0);
    const chain = JSON.parse(
      await readFile(path.join(entryDir(), "chain.json"), "utf8"),
    );
    expect(chain.chain_id).to.equal(COSMOS_CHAIN_ID);
    expect(chain.evm_chain_id).to.equal(
      Number(registryEvmChainId(COSMOS_CHAIN_ID)),
    );
    expect(chain.metadata).to.deep.equal({
      is_l1: false,
      op_bridge_id: "16",
      op_denoms: ["uinit"],
      minitia: { type: "minievm", version: "v1.0.2" },
    });
    const profile = JSON.parse(
      await readFile(path.join(registry, "profiles", "rehearsal.json"), "utf8"),
    );
    expect(profile.vip.actions[0].title).to.equal("Trade on the rollup");
    expect(
      JSON.parse(
        await readFile(path.join(entryDir(), "assetlist.json"), "utf8"),
      ).assets[0].denom_units,
    ).to.deep.equal([
      { denom: "evm/2eE7007DF876084d4C74685e90bB7f4cd7c86e22", exponent: 0 },
      { denom: "gas", exponent: 18 },
    ]);

    const check = await runHardhat(["registry:check", "--dir", entryDir()]);
    expect(check.code, check.output).to.equal(0);
    expect(check.stdout).to.include("pass the registry's schemas and rules");

    const again = await runHardhat(
      [
        "registry:entry",
        "--network",
        "rollup",
        "--registry",
        registry,
        "--input",
        EXAMPLE,
      ],
      env,
    );
    expect(again.code).to.not.equal(0);
    expect(failure(again, ERRORS.REGISTRY.ENTRY.ENTRY_EXISTS)).to.include(
      path.join(entryDir(), "chain.json"),
    );
  });

  it("refuses an entry whose EVM chain id breaks the registry's rule, and writes nothing", async () => {
    const other = await mkdtemp(path.join(tmpdir(), "vip-registry-bad-"));
    cometbft.state.network = "someother-1";
    try {
      const result = await runHardhat(
        [
          "registry:entry",
          "--network",
          "rollup",
          "--registry",
          other,
          "--input",
          EXAMPLE,
        ],
        env,
      );
      expect(result.code).to.not.equal(0);
      failure(result, ERRORS.REGISTRY.ENTRY.ENTRY_WOULD_FAIL);
      // The problem names the file, the field, and both chain ids.
      expect(result.output).to.match(
        new RegExp(
          `chain\\.json: evm_chain_id: .*\\b${registryEvmChainId(COSMOS_CHAIN_ID)}\\b.*\\b${registryEvmChainId("someother-1")}\\b`,
        ),
      );
      const written = await readFile(
        path.join(other, "mainnets", "rehearsal", "chain.json"),
        "utf8",
      ).then(
        () => true,
        () => false,
      );
      expect(written).to.equal(false);
    } finally {
      cometbft.state.network = COSMOS_CHAIN_ID;
      await rm(other, { recursive: true, force: true });
    }
  });

  it("names a bad input file's field", async () => {
    const input = JSON.parse(await readFile(EXAMPLE, "utf8"));
    input.description = "x".repeat(141);
    input.logo = "http://example.org/logo.jpg";
    const file = path.join(registry, "bad-input.json");
    await writeFile(file, JSON.stringify(input));
    const result = await runHardhat(
      [
        "registry:entry",
        "--network",
        "rollup",
        "--registry",
        registry,
        "--input",
        file,
      ],
      env,
    );
    expect(result.code).to.not.equal(0);
    expect(failure(result, ERRORS.REGISTRY.ENTRY.INPUT_INVALID)).to.include(
      file,
    );
    expect(result.output).to.match(
      new RegExp(`${file}: description: .*\\b140\\b`),
    );
    expect(result.output).to.include(`${file}: logo: `);
  });

  it("registry:check names every failing field of a hand-edited entry by its path", async () => {
    const copy = await mkdtemp(path.join(tmpdir(), "vip-registry-edited-"));
    after(() => rm(copy, { recursive: true, force: true }));
    await cp(registry, copy, { recursive: true });
    const dir = path.join(copy, "mainnets", "rehearsal");
    const chain = JSON.parse(
      await readFile(path.join(dir, "chain.json"), "utf8"),
    );
    chain.chain_name = "renamed";
    chain.evm_chain_id = 1;
    chain.apis.rpc[0].address = "http://rpc.rehearsal.example.org";
    delete chain.apis["json-rpc-websocket"];
    delete chain.metadata.op_bridge_id;
    chain.surprise = true;
    await writeFile(path.join(dir, "chain.json"), JSON.stringify(chain));
    const result = await runHardhat(["registry:check", "--dir", dir]);
    expect(result.code).to.not.equal(0);
    expect(failure(result, ERRORS.REGISTRY.ENTRY.ENTRY_PROBLEMS)).to.include(
      dir,
    );
    for (const expected of [
      'chain.json: chain_name: is "renamed", but the folder is "rehearsal"',
      "chain.json: evm_chain_id: is 1, but the registry's rule gives",
      "chain.json: apis.rpc[0].address: ",
      "chain.json: apis.json-rpc-websocket: is required for a minievm rollup",
      "chain.json: metadata.op_bridge_id: is required for a rollup",
      "chain.json: (the file): Unrecognized key(s) in object: 'surprise'",
      'assetlist.json: chain_name: is "rehearsal", must be "renamed"',
    ]) {
      expect(result.stdout, expected).to.include(expected);
    }
  });

  it("passes real entries of initia-labs/initia-registry: a testnet entry without a profile, a mainnet one with; a mainnet entry without its profile is refused", async () => {
    const corpus = path.join(PROJECT_ROOT, "test", "corpus", "registry");
    const testnet = await runHardhat([
      "registry:check",
      "--dir",
      path.join(corpus, "testnets", "evm"),
    ]);
    expect(testnet.code, testnet.output).to.equal(0);
    expect(testnet.stdout).to.include(
      "chain.json and assetlist.json (no profile, as testnet entries have none) pass the registry's schemas and rules",
    );
    const mainnet = await runHardhat([
      "registry:check",
      "--dir",
      path.join(corpus, "mainnets", "cabal"),
    ]);
    expect(mainnet.code, mainnet.output).to.equal(0);
    expect(mainnet.stdout).to.include(
      "chain.json, assetlist.json and profiles/cabal.json pass",
    );

    const copy = await mkdtemp(path.join(tmpdir(), "vip-registry-no-profile-"));
    after(() => rm(copy, { recursive: true, force: true }));
    await cp(path.join(corpus, "mainnets"), path.join(copy, "mainnets"), {
      recursive: true,
    });
    const orphan = await runHardhat([
      "registry:check",
      "--dir",
      path.join(copy, "mainnets", "cabal"),
    ]);
    expect(orphan.code).to.not.equal(0);
    expect(failure(orphan, ERRORS.REGISTRY.ENTRY.ENTRY_PROBLEMS)).to.include(
      path.join(copy, "mainnets", "cabal"),
    );
    expect(orphan.stdout).to.include(
      "profiles/cabal.json: (the file): is missing: a mainnet entry needs its profile",
    );
  });

  it("derives OP denoms from the bridge id", () => {
    expect(l2Denom(16n, "uinit")).to.match(/^l2\/[0-9a-f]{64}$/);
    expect(l2Denom(16n, "uinit")).to.not.equal(l2Denom(17n, "uinit"));
    expect(l2Denom(16n, "uinit")).to.not.equal(l2Denom(16n, "uusdc"));
  });
});
