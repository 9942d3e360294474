import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { bcs } from "@initia/initia.js";
import { expect } from "chai";
import { getAddress } from "ethers";

import { ERRORS, type ErrorDescriptor } from "../../tasks/error-catalog.js";
import { isVipError } from "../../tasks/errors.js";
import { deriveBridgeAddress } from "../../tasks/proposal/bridge-address.js";
import { parseRate } from "../../tasks/proposal/rates.js";
import { encodeRegisterArgs } from "../../tasks/proposal/whitelist.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import {
  startRollupRestStandIn,
  type RollupRestStandIn,
} from "../../tasks/stand-ins/rollup-rest.js";
import { failure } from "../helpers/failure.js";
import { runHardhat } from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER_KEY } from "../helpers/keys.js";
import { deployVipScore, directProvider } from "../helpers/rig.js";

const OPERATOR = getAddress("0xf957defdb84de782de9a48f030fe64bd7711ad51");

/**
 * Facts §4's vectors, from Initia's sources: an independent check of the
 * encoding.
 */
describe("BCS encoding of vip::register's arguments", () => {
  it("matches the documented vectors", () => {
    const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
    expect(
      ["0", "0.1", "0.2", "1"].map((v) =>
        b64(bcs.bigdecimal().serialize(v).toBytes()),
      ),
    ).to.deep.equal(["AA==", "CAAAil14RWMB", "CAAAFLvwisYC", "CAAAZKeztuAN"]);
    expect(b64(bcs.u64().serialize(2n).toBytes())).to.equal("AgAAAAAAAAA=");
    expect(b64(bcs.u64().serialize(16n).toBytes())).to.equal("EAAAAAAAAAA=");
    const args = encodeRegisterArgs({
      operator: OPERATOR,
      bridgeId: 16n,
      bridgeAddress: deriveBridgeAddress(16n),
      scoreContract: "0x0000000000000000000000000000000000000001",
      maxRate: parseRate("1", "max"),
      maxChangeRate: parseRate("0.1", "change"),
      rate: parseRate("0.2", "rate"),
    });
    expect(args[0]).to.equal("AAAAAAAAAAAAAAAA+Vfe/bhN54LemkjwMP5kvXcRrVE=");
    expect(args[1]).to.equal("EAAAAAAAAAA=");
    expect([args[4], args[5], args[6], args[7]]).to.deep.equal([
      "CAAAZKeztuAN",
      "CAAAil14RWMB",
      "CAAAFLvwisYC",
      "AgAAAAAAAAA=",
    ]);
  });

  it("derives bridge 16's address as the facts give it (init1y3avrs…270ht)", () => {
    const address = deriveBridgeAddress(16n);
    expect(address.startsWith("init1y3avrs")).to.equal(true);
    expect(address.endsWith("270ht")).to.equal(true);
    expect(address).to.have.length(63);
  });

  it("parses rates as the chain does, and refuses what it refuses", () => {
    expect(parseRate("0.05", "r").scaled).to.equal(5n * 10n ** 16n);
    expect(parseRate("1", "r").scaled).to.equal(10n ** 18n);
    for (const [raw, expected] of [
      ["1.0000001", ERRORS.REGISTRY.PROPOSAL.RATE_ABOVE_ONE],
      ["5%", ERRORS.REGISTRY.PROPOSAL.RATE_NOT_DECIMAL],
      [".5", ERRORS.REGISTRY.PROPOSAL.RATE_NOT_DECIMAL],
      ["1e-2", ERRORS.REGISTRY.PROPOSAL.RATE_NOT_DECIMAL],
      ["-0.1", ERRORS.REGISTRY.PROPOSAL.RATE_NOT_DECIMAL],
      ["0.0000000000000000001", ERRORS.REGISTRY.PROPOSAL.RATE_TOO_PRECISE],
    ] as const) {
      let error: unknown;
      try {
        parseRate(raw, "--commission-rate");
      } catch (caught) {
        error = caught;
      }
      if (!isVipError(error, expected))
        expect.fail(
          `${raw}: expected ${expected.number}, got ${String(error)}`,
        );
      expect(error.params, raw).to.deep.include({
        option: "--commission-rate",
        value: raw,
      });
    }
    let precise: unknown;
    try {
      parseRate("0.0000000000000000001", "--commission-rate");
    } catch (caught) {
      precise = caught;
    }
    if (!isVipError(precise, ERRORS.REGISTRY.PROPOSAL.RATE_TOO_PRECISE))
      expect.fail(String(precise));
    expect(precise.params.decimals).to.equal(18);
  });
});

/**
 * The proposal as a reviewer would build it by hand from the rules in facts §4:
 * no code of the plugin.
 */
function independentProposal(contract: string, bridgeAddress: string): unknown {
  const u64 = (n: bigint) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(n);
    return b;
  };
  const decimal = (scaled: bigint) => {
    const bytes: number[] = [];
    for (let v = scaled; v > 0n; v >>= 8n) bytes.push(Number(v & 0xffn));
    return Buffer.from([bytes.length, ...bytes]); // ULEB128 length (< 128) then little-endian magnitude
  };
  const address20 = (hex: string) =>
    Buffer.concat([Buffer.alloc(12), Buffer.from(hex.slice(2), "hex")]);
  const text = Buffer.from(contract, "utf8");
  return {
    messages: [
      {
        "@type": "/initia.move.v1.MsgGovExecute",
        authority: "init10d07y265gmmuvt4z0w9aw880jnsr700j55nka3",
        sender:
          "init182yxkv4gqfvz7tjyde6dfgjdr4ldqxklgmf23aju2u3cslnss7ys6dy6w8",
        module_address:
          "init182yxkv4gqfvz7tjyde6dfgjdr4ldqxklgmf23aju2u3cslnss7ys6dy6w8",
        module_name: "vip",
        function_name: "register",
        type_args: [],
        args: [
          address20(OPERATOR.toLowerCase()),
          u64(16n),
          Buffer.from(bcs.address().serialize(bridgeAddress).toBytes()),
          Buffer.concat([Buffer.from([text.length]), text]),
          decimal(5n * 10n ** 17n),
          decimal(10n ** 17n),
          decimal(2n * 10n ** 17n),
          u64(2n),
        ].map((b) => b.toString("base64")),
      },
    ],
    metadata: "https://forum.initia.xyz/t/vip-whitelist-rehearsal/1",
    deposit: "100000000uinit",
    title: "Whitelist the rehearsal rollup",
    summary: "Adds the rollup to VIP",
    expedited: false,
  };
}

describe("proposal:whitelist against a hardhat node and the stand-ins", () => {
  let node: HardhatNode;
  let baseChain: L1RestStandIn;
  let rollupRest: RollupRestStandIn;
  let dir: string;
  let contract: string;
  let env: Record<string, string>;

  const options = (
    out: string,
    overrides: Record<string, string | undefined> = {},
  ) => {
    const all: Record<string, string | undefined> = {
      operator: OPERATOR,
      "commission-max-rate": "0.5",
      "commission-max-change-rate": "0.1",
      "commission-rate": "0.2",
      metadata: "https://forum.initia.xyz/t/vip-whitelist-rehearsal/1",
      title: "Whitelist the rehearsal rollup",
      summary: "Adds the rollup to VIP",
      out,
      contract,
      ...overrides,
    };
    return Object.entries(all).flatMap(([name, value]) =>
      value === undefined ? [] : [`--${name}`, value],
    );
  };
  const propose = (
    out: string,
    overrides: Record<string, string | undefined> = {},
    extra: string[] = [],
  ) =>
    runHardhat(
      [
        "proposal:whitelist",
        "--network",
        "rollup",
        ...options(out, overrides),
        ...extra,
      ],
      env,
    );
  const refusal = async (
    out: string,
    overrides: Record<string, string | undefined>,
    expected: ErrorDescriptor,
    extra: string[] = [],
  ) => {
    const result = await propose(out, overrides, extra);
    expect(
      await stat(out).then(
        () => true,
        () => false,
      ),
      "no file written",
    ).to.equal(false);
    return failure(result, expected);
  };

  before(async () => {
    [node, baseChain, rollupRest] = await Promise.all([
      startHardhatNode(),
      startL1RestStandIn({ stage: 15n }),
      startRollupRestStandIn(),
    ]);
    contract = await (
      await deployVipScore(directProvider(node), 15n)
    ).getAddress();
    env = {
      JSON_RPC_URL: node.url,
      PRIVATE_KEY: DEPLOYER_KEY,
      L1_REST_URL: baseChain.url,
      ROLLUP_REST_URL: rollupRest.url,
    };
    dir = await mkdtemp(path.join(tmpdir(), "vip-proposal-"));
  });

  after(async () => {
    await Promise.all([node.close(), baseChain.close(), rollupRest.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  it("writes the proposal byte for byte as built independently, and reads its arguments back in words", async () => {
    const out = path.join(dir, "proposal.json");
    const result = await propose(out);
    expect(result.code, result.output).to.equal(0);
    const written = JSON.parse(await readFile(out, "utf8"));
    expect(written).to.deep.equal(
      independentProposal(contract, deriveBridgeAddress(16n)),
    );
    expect(result.stdout).to.match(
      /^ {2}operator\s+init1l9taaldcfhnc9h56frcrplnyh4m3rt23\w+ \(0xf957defdb84de782de9a48f030fe64bd7711ad51\)/m,
    );
    expect(result.stdout).to.match(/^ {2}bridge id\s+16$/m);
    expect(result.stdout).to.include(
      `score contract           ${contract} (on the rollup)`,
    );
    expect(result.stdout).to.match(/^ {2}commission max rate\s+0\.5$/m);
    expect(result.stdout).to.match(/^ {2}commission rate\s+0\.2$/m);
    expect(result.stdout).to.match(/^ {2}vm type\s+2 \(EVM\)$/m);
    expect(result.stdout).to.match(/^deposit\s+100000000uinit$/m);
  });

  it("names the published scoring policy and its sha256 in the summary with --policy", async () => {
    const policy = path.join(dir, "perp.sql");
    const text = `-- @policy perp-volume\n-- @from-stage 16\n-- @source trades ${contract} event Trade(address indexed trader, uint256 notional)\nselect trader as address, sum(notional) as score from trades group by trader\n`;
    await writeFile(policy, text);
    const out = path.join(dir, "with-policy.json");
    const result = await propose(out, { policy });
    expect(result.code, result.output).to.equal(0);
    const written = JSON.parse(await readFile(out, "utf8"));
    const sha256 = createHash("sha256").update(text).digest("hex");
    expect(written.summary).to.equal(
      `Adds the rollup to VIP\n\nScoring policy: perp-volume (perp.sql), from stage 16, sha256 ${sha256}.`,
    );
    await writeFile(policy, "-- @policy perp-volume\n-- @from-stage x\n");
    const bad = path.join(dir, "bad-policy.json");
    const header = await refusal(
      bad,
      { policy },
      ERRORS.SCORING.POLICY_FILES.POLICY_HEADER,
    );
    expect(header).to.include(`${policy}:2:`);
    expect(header).to.include("@from-stage");
    expect(header).to.include('"x"');
  });

  it("refuses what the chain would refuse, before anything is written", async () => {
    const out = path.join(dir, "refused.json");
    expect(
      await refusal(
        out,
        { "commission-rate": "1.5" },
        ERRORS.REGISTRY.PROPOSAL.RATE_ABOVE_ONE,
      ),
    ).to.include("--commission-rate 1.5");
    expect(
      await refusal(
        out,
        { "commission-max-rate": "ten percent" },
        ERRORS.REGISTRY.PROPOSAL.RATE_NOT_DECIMAL,
      ),
    ).to.include("--commission-max-rate ten percent");
    const aboveMax = await refusal(
      out,
      { "commission-rate": "0.6" },
      ERRORS.REGISTRY.PROPOSAL.RATE_ABOVE_MAX,
    );
    expect(aboveMax).to.include("--commission-rate 0.6");
    expect(aboveMax).to.include("--commission-max-rate 0.5");
    expect(
      await refusal(
        out,
        { metadata: undefined },
        ERRORS.CONFIG.OPTIONS.OPTION_REQUIRED,
      ),
    ).to.include("--metadata");
    expect(
      await refusal(
        out,
        { metadata: "http://forum.initia.xyz/t/1" },
        ERRORS.REGISTRY.ENTRY.METADATA_NOT_HTTPS,
      ),
    ).to.include("--metadata http://forum.initia.xyz/t/1");
    const operator = await refusal(
      out,
      { operator: "init1notanaddress" },
      ERRORS.CONTRACT.ACCOUNTS.ADDRESS_BAD_BECH32,
    );
    expect(operator).to.include("--operator");
    expect(operator).to.include('"init1notanaddress"');
  });

  it("refuses a registered bridge, a stage that lags the program, a missing VIP module, a wrong bridge address", async () => {
    const out = path.join(dir, "refused.json");
    baseChain.state.registeredBridges = [3n, 16n];
    expect(
      await refusal(out, {}, ERRORS.REGISTRY.PROPOSAL.BRIDGE_REGISTERED),
    ).to.match(/\b16\b/);
    baseChain.state.registeredBridges = [1n];
    baseChain.state.stage = 17n;
    const behind = await refusal(
      out,
      {},
      ERRORS.REGISTRY.PROPOSAL.STAGE_BEHIND_PROGRAM,
    );
    expect(behind).to.match(/\b15\b/);
    expect(behind).to.match(/\b17\b/);
    expect(behind).to.include("--stage 15 --network rollup");
    baseChain.state.stage = 15n;
    baseChain.state.vipModule = false;
    const noModule = await refusal(
      out,
      {},
      ERRORS.NETWORK.PROGRAM.NO_VIP_MODULE,
    );
    expect(noModule).to.include("0x3a886b32");
    expect(noModule).to.include("VIP_MODULE_ADDRESS");
    baseChain.state.vipModule = true;
    rollupRest.state.bridgeAddress = deriveBridgeAddress(17n);
    const mismatch = await refusal(
      out,
      {},
      ERRORS.REGISTRY.PROPOSAL.BRIDGE_ADDRESS_MISMATCH,
    );
    expect(mismatch).to.match(/\b16\b/);
    expect(mismatch).to.include(deriveBridgeAddress(17n));
    expect(mismatch).to.include(deriveBridgeAddress(16n));
    rollupRest.state.bridgeAddress = undefined;
    rollupRest.state.mode = "missing-field";
    const missing = await refusal(
      out,
      {},
      ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER,
    );
    expect(missing).to.include(
      `${rollupRest.url}/opinit/opchild/v1/bridge_info`,
    );
    expect(missing).to.include("bridge_info.bridge_id");
    rollupRest.state.mode = "ok";
  });

  it("falls back to the documented deposit when the gov params cannot be read, and names a failing view", async () => {
    const out = path.join(dir, "fallback.json");
    baseChain.state.govParams = false;
    const result = await propose(out);
    baseChain.state.govParams = true;
    expect(result.code, result.output).to.equal(0);
    expect(result.stderr).to.match(
      /the gov params could not be read \(.*\/initia\/gov\/v1\/params answered HTTP 501.*\); the deposit is 100000000uinit/,
    );
    baseChain.state.view = "http-error";
    const status = await refusal(
      path.join(dir, "view.json"),
      {},
      ERRORS.NETWORK.HTTP.HTTP_STATUS,
    );
    expect(status).to.include(`${baseChain.url}/initia/move/v1/view/json`);
    expect(status).to.match(/\b500\b/);
    baseChain.state.view = "bad-data";
    const notString = await refusal(
      path.join(dir, "view.json"),
      {},
      ERRORS.NETWORK.HTTP.NOT_A_JSON_STRING,
    );
    expect(notString).to.include("vip::get_bridge_infos");
    expect(notString).to.match(/: data /);
    baseChain.state.view = "ok";
  });

  it("on a testnet, says how testnets are onboarded and writes only with --force", async () => {
    rollupRest.state.l1ChainId = "initiation-2";
    const out = path.join(dir, "testnet.json");
    const testnet = await refusal(
      out,
      {},
      ERRORS.REGISTRY.PROPOSAL.TESTNET_BASE_CHAIN,
    );
    expect(testnet).to.include("initiation-2");
    expect(testnet).to.include("--force");
    const forced = await propose(out, {}, ["--force"]);
    expect(forced.code, forced.output).to.equal(0);
    expect(forced.stderr).to.include(
      "testnet rollups are onboarded by contacting the VIP program team",
    );
    expect(
      JSON.parse(await readFile(out, "utf8")).messages[0].function_name,
    ).to.equal("register");
    rollupRest.state.l1ChainId = "interwoven-1";
  });
});
