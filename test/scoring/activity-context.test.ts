import type { Server } from "node:http";

import { expect } from "chai";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { ERRORS } from "../../tasks/error-catalog.js";
import { isVipError } from "../../tasks/errors.js";
import { activityContext } from "../../tasks/scoring/context.js";
import { httpNetworkConfig, startRpcStandIn } from "../helpers/rpc-stand-in.js";

/**
 * As much of a Hardhat runtime as the scoring commands' context reads: the
 * `--network` named "rollup", an HTTP network with vip settings of its own.
 */
function runtime(url: string, chainId?: number): HardhatRuntimeEnvironment {
  return {
    globalOptions: { network: "rollup" },
    config: {
      paths: { root: "/nonexistent-project" },
      networks: {
        rollup: {
          ...httpNetworkConfig(url),
          chainId,
          vip: { configured: true },
        },
      },
    },
  } as unknown as HardhatRuntimeEnvironment;
}

describe("the scoring commands' view of the rollup (no Hardhat connection)", () => {
  const servers: Server[] = [];
  afterEach(() => servers.splice(0).forEach((s) => s.close()));

  const node = async () => {
    const n = await startRpcStandIn((body) => ({
      body: {
        jsonrpc: "2.0",
        id: (body as { id: number }).id,
        result: "0x7a69",
      },
    }));
    servers.push(n.server);
    return n;
  };

  it("reads the chain id from the node, and takes the network's configured chainId when they agree", async () => {
    const n = await node();
    for (const configured of [undefined, 31337]) {
      const { ctx, network } = await activityContext(
        runtime(n.url, configured),
        { needsBaseChain: false },
      );
      expect(ctx.chainId).to.equal(31337n);
      expect(network.name).to.equal("rollup");
      expect(ctx.dataDir).to.equal("/nonexistent-project/vip-data");
    }
    expect(
      n.seen.map((r) => (r.body as { method: string }).method),
    ).to.deep.equal(["eth_chainId", "eth_chainId"]);
  });

  it("refuses a node of another chain than the network's chainId, as Hardhat's connection does", async () => {
    const n = await node();
    const refused = await activityContext(runtime(n.url, 1), {
      needsBaseChain: false,
    }).catch((error: unknown) => error);
    expect(
      isVipError(refused, ERRORS.NETWORK.TASK_NETWORK.CHAIN_ID_MISMATCH) &&
        refused.params,
      String(refused),
    ).to.deep.equal({ name: "rollup", configured: 1, answered: 31337n });
  });

  it("refuses a url that is not one by the network's name, never quoting it (it may hold a key)", async () => {
    const n = await node();
    const refused = await activityContext(
      runtime("rpc.example.com/v1/KEY-IN-PATH"),
      { needsBaseChain: false },
    ).catch((error: unknown) => error);
    expect(
      isVipError(refused, ERRORS.CONFIG.SETTINGS.NETWORK_URL_INVALID),
      String(refused),
    ).to.equal(true);
    const text = `${String(refused)} ${JSON.stringify(refused)} ${(refused as Error).stack}`;
    expect(text).to.include('network "rollup"');
    expect(text).to.not.include("KEY-IN-PATH");
    expect(n.seen, "nothing was sent").to.deep.equal([]);
  });
});
