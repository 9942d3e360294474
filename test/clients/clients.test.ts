import { expect } from "chai";

import {
  fetchAbciInfo,
  fetchCosmosChainId,
} from "../../tasks/clients/cometbft.js";
import { describeEndpoint } from "../../tasks/clients/http.js";
import {
  fetchChainTime,
  fetchVipProgram,
  fetchVipStage,
} from "../../tasks/clients/l1-rest.js";
import { fetchStageWindow } from "../../tasks/clients/stage-window.js";
import { MAINNET_VIP_MODULE_ADDRESS } from "../../tasks/config/constants.js";
import { ERRORS, type ErrorDescriptor } from "../../tasks/error-catalog.js";
import {
  startCometBftStandIn,
  type CometBftStandIn,
} from "../../tasks/stand-ins/cometbft.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import { startServer } from "../../tasks/stand-ins/server.js";
import { refusal } from "../helpers/failure.js";

/**
 * A URL on which nothing listens: a server is started for a free port, then
 * closed.
 */
async function unreachableUrl(): Promise<string> {
  const server = await startServer(() => ({ status: 200, body: "{}" }));
  await server.close();
  return server.url;
}

describe("CometBFT client", () => {
  let node: CometBftStandIn;
  beforeEach(async () => (node = await startCometBftStandIn()));
  afterEach(async () => node.close());

  it("reads the version record of abci_info", async () => {
    node.state.version = "v1.1.0";
    node.state.height = 42n;
    const info = await fetchAbciInfo(node.url);
    expect(info).to.deep.equal({
      application: "minitia",
      version: "v1.1.0",
      lastBlockHeight: 42n,
      lastBlockAppHash: node.state.appHash,
    });
  });

  it("reads the Cosmos chain id from status", async () => {
    node.state.network = "yominet-1";
    expect(await fetchCosmosChainId(node.url)).to.equal("yominet-1");
  });

  it("keeps a path prefix of the configured URL (a gateway)", async () => {
    const behindGateway = await startServer((request) =>
      request.url === "/cometbft/abci_info"
        ? {
            status: 200,
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: -1,
              result: {
                response: {
                  data: "minitia",
                  version: "v1.0.2",
                  last_block_height: "1",
                  last_block_app_hash: "",
                },
              },
            }),
          }
        : { status: 404, body: "{}" },
    );
    try {
      expect(
        (await fetchAbciInfo(`${behindGateway.url}/cometbft/`)).version,
      ).to.equal("v1.0.2");
    } finally {
      await behindGateway.close();
    }
  });

  it("names the endpoint when it is unreachable", async () => {
    const url = await unreachableUrl();
    expect(
      (await refusal(fetchAbciInfo(url), ERRORS.NETWORK.HTTP.UNREACHABLE))
        .params,
    ).to.deep.equal({ url: `${url}/abci_info`, reason: "ECONNREFUSED" });
  });

  it("reports an answer that is not JSON", async () => {
    node.state.mode = "not-json";
    expect(
      (await refusal(fetchAbciInfo(node.url), ERRORS.NETWORK.HTTP.NOT_JSON))
        .params,
    ).to.deep.equal({
      url: `${node.url}/abci_info`,
      body: "<html>gateway</html>",
    });
  });

  it("reports a JSON-RPC error with its code and message", async () => {
    node.state.mode = "rpc-error";
    expect(
      (
        await refusal(
          fetchAbciInfo(node.url),
          ERRORS.NETWORK.HTTP.JSON_RPC_ERROR,
        )
      ).params,
    ).to.deep.equal({
      method: "abci_info",
      url: `${node.url}/abci_info`,
      code: -32603,
      reason: "Internal error",
    });
  });

  it("names a missing field", async () => {
    node.state.mode = "missing-field";
    expect(
      (
        await refusal(
          fetchAbciInfo(node.url),
          ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER,
        )
      ).params,
    ).to.deep.equal({
      what: `abci_info at ${node.url}/abci_info`,
      field: "result.response.version",
      problem: "is missing",
    });
    expect(
      (
        await refusal(
          fetchCosmosChainId(node.url),
          ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER,
        )
      ).params,
    ).to.deep.equal({
      what: `status at ${node.url}/status`,
      field: "result.node_info.network",
      problem: "is missing",
    });
  });

  it("reports an HTTP error status", async () => {
    node.state.mode = "http-error";
    expect(
      (await refusal(fetchAbciInfo(node.url), ERRORS.NETWORK.HTTP.HTTP_STATUS))
        .params,
    ).to.deep.equal({
      url: `${node.url}/abci_info`,
      status: 500,
      reason: "internal error",
    });
  });

  it("never names more of a URL than its origin, which may carry an API key", () => {
    expect(
      describeEndpoint(
        "https://user:secret@rpc.example.com/v2/KEY123?apikey=KEY456",
        "/abci_info",
      ),
    ).to.equal("https://rpc.example.com/abci_info");
  });
});

describe("base-chain REST client", () => {
  let rest: L1RestStandIn;
  const window = {
    stageStartTime: 1_700_000_000n,
    stageEndTime: 1_700_100_000n,
    stageInterval: 100_000n,
  };
  beforeEach(
    async () =>
      (rest = await startL1RestStandIn({
        stage: 21n,
        ...window,
        now: 1_700_050_000n,
      })),
  );
  afterEach(async () => rest.close());

  it("reads the current stage from the ModuleStore's move_resource JSON string", async () => {
    const stage = await fetchVipStage(rest.url, MAINNET_VIP_MODULE_ADDRESS);
    expect(stage).to.deep.include({ stage: 21n, ...window });
    expect(stage.stageDataHandle).to.match(/^0x[0-9a-f]{64}$/);
  });

  it("reads a past stage's window from its stage_data entry (by the key's BCS bytes), the open one from the ModuleStore", async () => {
    // Stage 20 lasted longer than today's interval: only the table knows.
    rest.state.stageData.set(20n, {
      start: 1_699_000_000n,
      end: 1_700_000_000n,
    });
    expect(
      await fetchStageWindow(rest.url, MAINNET_VIP_MODULE_ADDRESS, 20n),
    ).to.deep.equal({ stage: 20n, start: 1_699_000_000n, end: 1_700_000_000n });
    expect(
      await fetchStageWindow(rest.url, MAINNET_VIP_MODULE_ADDRESS, 21n),
    ).to.deep.equal({
      stage: 21n,
      start: window.stageStartTime,
      end: window.stageEndTime,
    });
    const refused = async <D extends ErrorDescriptor>(
      stage: bigint,
      expected: D,
    ) =>
      refusal(
        fetchStageWindow(rest.url, MAINNET_VIP_MODULE_ADDRESS, stage),
        expected,
      );
    expect(
      (await refused(22n, ERRORS.NETWORK.PROGRAM.STAGE_NOT_STARTED)).params,
    ).to.deep.equal({ stage: 22n, current: 21n });
    const notFound = (
      await refused(0n, ERRORS.NETWORK.PROGRAM.STAGE_WINDOW_NOT_FOUND)
    ).params;
    expect(notFound.stage).to.equal(0n);
    expect(notFound.what).to.match(/^stage 0's entry in stage_data at /);
  });

  it("reads the program's clock, and the stage advances by fund_reward_script's rule once its end passes", async () => {
    expect(
      await fetchVipProgram(rest.url, MAINNET_VIP_MODULE_ADDRESS),
    ).to.deep.equal({ stage: 21n, ...window });
    rest.state.now = 1_700_250_000n; // two windows later: the stage moves twice, the windows stay back to back
    expect(
      await fetchVipProgram(rest.url, MAINNET_VIP_MODULE_ADDRESS),
    ).to.deep.equal({
      stage: 23n,
      stageStartTime: 1_700_200_000n,
      stageEndTime: 1_700_300_000n,
      stageInterval: 100_000n,
    });
  });

  it("serves a stage set directly with its own window, back to back with the one before", async () => {
    rest.state.stage = 22n; // the program moved on, as the rehearsal has it
    expect(
      await fetchVipProgram(rest.url, MAINNET_VIP_MODULE_ADDRESS),
    ).to.deep.equal({
      stage: 22n,
      stageStartTime: window.stageEndTime,
      stageEndTime: window.stageEndTime + window.stageInterval,
      stageInterval: window.stageInterval,
    });
    expect(
      await fetchStageWindow(rest.url, MAINNET_VIP_MODULE_ADDRESS, 21n),
    ).to.deep.equal({
      stage: 21n,
      start: window.stageStartTime,
      end: window.stageEndTime,
    });
    rest.state.stage = 21n; // and back: stage 21's window again
    expect(
      await fetchVipProgram(rest.url, MAINNET_VIP_MODULE_ADDRESS),
    ).to.deep.equal({ stage: 21n, ...window });
  });

  it("reads the base chain's time from its latest block, nanoseconds cut", async () => {
    rest.state.now = 1_700_050_123n;
    expect(await fetchChainTime(rest.url)).to.equal(1_700_050_123n);
  });

  it("names a block time that is not RFC 3339", async () => {
    const server = await startServer(() => ({
      status: 200,
      body: JSON.stringify({ block: { header: { time: "yesterday" } } }),
    }));
    try {
      expect(
        (
          await refusal(
            fetchChainTime(server.url),
            ERRORS.NETWORK.PROGRAM.CHAIN_TIME_INVALID,
          )
        ).params,
      ).to.deep.equal({
        what: `the latest block at ${server.url}/cosmos/base/tendermint/v1beta1/blocks/latest`,
        time: '"yesterday"',
      });
    } finally {
      await server.close();
    }
  });

  it("names the schedule fields a ModuleStore lacks", async () => {
    const store = {
      type: "x::vip::ModuleStore",
      data: { stage: "3", stage_end_time: "10" },
    };
    const server = await startServer(() => ({
      status: 200,
      body: JSON.stringify({
        resource: { move_resource: JSON.stringify(store) },
      }),
    }));
    try {
      expect(
        (
          await refusal(
            fetchVipProgram(server.url, MAINNET_VIP_MODULE_ADDRESS),
            ERRORS.NETWORK.PROGRAM.VIP_PROGRAM_INCOMPLETE,
          )
        ).params.fields,
      ).to.equal("stage_start_time, data.stage_interval");
    } finally {
      await server.close();
    }
  });

  it("says which module address was not found and what to check", async () => {
    const other =
      "0x1e90c1e45682a1b877035b8443879a0332651a8cc965e9417d5091b25906bf77";
    expect(
      (
        await refusal(
          fetchVipStage(rest.url, other),
          ERRORS.NETWORK.PROGRAM.VIP_MODULE_STORE_NOT_FOUND,
        )
      ).params,
    ).to.deep.equal({ address: other, node: rest.url });
  });

  it("reports an answer that is not JSON", async () => {
    rest.state.mode = "not-json";
    expect(
      (
        await refusal(
          fetchVipStage(rest.url, MAINNET_VIP_MODULE_ADDRESS),
          ERRORS.NETWORK.HTTP.NOT_JSON,
        )
      ).params.body,
    ).to.equal("upstream timeout");
  });

  it("names a missing stage inside move_resource", async () => {
    rest.state.mode = "missing-field";
    const missing = (
      await refusal(
        fetchVipStage(rest.url, MAINNET_VIP_MODULE_ADDRESS),
        ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER,
      )
    ).params;
    expect(missing.what).to.match(/\(resource\.move_resource\)$/);
    expect(missing).to.deep.include({
      field: "data.stage",
      problem: "is missing",
    });
  });

  it("reports a move_resource that is not a JSON string", async () => {
    rest.state.mode = "bad-move-resource";
    expect(
      (
        await refusal(
          fetchVipStage(rest.url, MAINNET_VIP_MODULE_ADDRESS),
          ERRORS.NETWORK.HTTP.NOT_A_JSON_STRING,
        )
      ).params.field,
    ).to.equal("resource.move_resource");
  });

  it("names the endpoint when it is unreachable", async () => {
    const url = await unreachableUrl();
    const unreachable = (
      await refusal(
        fetchVipStage(url, MAINNET_VIP_MODULE_ADDRESS),
        ERRORS.NETWORK.HTTP.UNREACHABLE,
      )
    ).params;
    expect(unreachable.url).to.match(
      new RegExp(`^${url}/initia/move/v1/accounts/0x3a88`),
    );
    expect(unreachable.reason).to.equal("ECONNREFUSED");
  });
});
