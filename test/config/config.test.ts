import { HardhatError } from "@nomicfoundation/hardhat-errors";
import { expect } from "chai";
import { configVariable } from "hardhat/config";
import { createHardhatRuntimeEnvironment } from "hardhat/hre";

import { MAINNET_VIP_MODULE_ADDRESS } from "../../tasks/config/constants.js";
import { ERRORS } from "../../tasks/error-catalog.js";
import { defined, isVipError } from "../../tasks/errors.js";
import vipScorePlugin from "../../tasks/index.js";
import { policyBounds } from "../../tasks/scoring/policy-bounds.js";
import { json, startServer } from "../../tasks/stand-ins/server.js";

/**
 * The config errors Hardhat reports when the config loads (its own
 * INVALID_CONFIG), one a line, after asserting that is how it failed.
 */
async function loadError(vip: unknown): Promise<string> {
  try {
    await createHardhatRuntimeEnvironment({
      plugins: [vipScorePlugin],
      networks: {
        rollup: {
          type: "http",
          url: "http://127.0.0.1:8545",
          vip: vip as never,
        },
      },
    });
  } catch (error) {
    expect(
      HardhatError.isHardhatError(
        error,
        HardhatError.ERRORS.CORE.GENERAL.INVALID_CONFIG,
      ),
      String(error),
    ).to.equal(true);
    const { errors } = (error as HardhatError).messageArguments as {
      errors: string;
    };
    return errors;
  }
  throw new Error("expected the config to be refused");
}

describe("plugin config", () => {
  it("is checked when the config loads, naming the network and the field", async () => {
    expect(await loadError({ rollupRpcUrl: "not a url" })).to.include(
      "config.networks.rollup.vip.rollupRpcUrl:",
    );
    expect(await loadError({ vipModuleAddress: "0xzz" })).to.include(
      "config.networks.rollup.vip.vipModuleAddress:",
    );
    expect(await loadError({ l1RestUrl: 42 })).to.include(
      "config.networks.rollup.vip.l1RestUrl:",
    );
    expect(await loadError({ policyTimeout: 0 })).to.include(
      "config.networks.rollup.vip.policyTimeout:",
    );
    expect(await loadError({ policyMemory: 1.5 })).to.include(
      "config.networks.rollup.vip.policyMemory:",
    );
    const unknown = await loadError({ rollupRpc: "http://127.0.0.1:26657" });
    expect(unknown).to.include("config.networks.rollup.vip:");
    expect(unknown).to.include("'rollupRpc'");
  });

  it("resolves values lazily, with the mainnet VIP module by default", async () => {
    const hre = await createHardhatRuntimeEnvironment({
      plugins: [vipScorePlugin],
      networks: {
        rollup: {
          type: "http",
          url: "http://127.0.0.1:8545",
          vip: {
            rollupRpcUrl: configVariable("UNSET_IN_THIS_TEST_RPC"),
            l1RestUrl: "http://127.0.0.1:1317",
          },
        },
      },
    });
    const rollup = defined(
      hre.config.networks.rollup,
      "hre.config.networks.rollup",
    );
    const vip = rollup.vip;
    expect(await defined(vip.l1RestUrl, "vip.l1RestUrl").get()).to.equal(
      "http://127.0.0.1:1317",
    );
    expect(await vip.vipModuleAddress.get()).to.equal(
      MAINNET_VIP_MODULE_ADDRESS,
    );
    expect(vip.rollupRpcUrl).to.not.equal(undefined);
    // A policy's bounds: the defaults, unless the network sets its own.
    expect([vip.policyTimeout, vip.policyMemory]).to.deep.equal([300, 2048]);
    expect(policyBounds({ policyTimeout: "30" }, rollup)).to.deep.equal({
      timeoutSeconds: 30,
      memoryMb: 2048,
    });
    let refused: unknown;
    try {
      policyBounds({ policyMemory: "2GB" }, rollup);
    } catch (error) {
      refused = error;
    }
    expect(
      isVipError(refused, ERRORS.SCORING.RUN.BOUND_OPTION_INVALID),
      String(refused),
    ).to.equal(true);
    expect(isVipError(refused) && refused.params).to.include({
      option: "--policy-memory",
      value: "2GB",
    });
  });

  it("retries reads only on the networks it operates (those with a vip block), and leaves the project's others alone", async () => {
    // A node whose every second connection drops without an answer.
    let requests = 0;
    const node = await startServer((_request, body) => {
      requests++;
      if (requests % 2 === 1) return { status: 0, body: "", drop: true };
      return json({
        jsonrpc: "2.0",
        id: (JSON.parse(body) as { id: number }).id,
        result: "0x7a69",
      });
    });
    try {
      const hre = await createHardhatRuntimeEnvironment({
        plugins: [vipScorePlugin],
        networks: {
          plain: { type: "http", url: node.url },
          rollup: { type: "http", url: node.url, vip: {} },
        },
      });
      const plain = await hre.network.create({ network: "plain" });
      requests = 0;
      let failed = false;
      await plain.provider
        .request({ method: "eth_chainId" })
        .catch(() => (failed = true));
      expect(failed, "a network without a vip block is not retried").to.equal(
        true,
      );
      expect(requests).to.equal(1);

      const rollup = await hre.network.create({ network: "rollup" });
      requests = 0;
      expect(await rollup.provider.request({ method: "eth_chainId" })).to.equal(
        "0x7a69",
      );
      expect(requests).to.equal(2);
    } finally {
      await node.close();
    }
  });
});
