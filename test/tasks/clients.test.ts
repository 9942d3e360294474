import { expect } from "chai";

import { fetchAbciInfo, fetchCosmosChainId } from "../../tasks/clients/cometbft.js";
import { describeEndpoint } from "../../tasks/clients/http.js";
import { fetchVipStage } from "../../tasks/clients/l1-rest.js";
import { MAINNET_VIP_MODULE_ADDRESS } from "../../tasks/config/constants.js";
import { startCometBftStandIn, type CometBftStandIn } from "../../tasks/stand-ins/cometbft.js";
import { startL1RestStandIn, type L1RestStandIn } from "../../tasks/stand-ins/l1-rest.js";
import { startServer } from "../../tasks/stand-ins/server.js";
import { rejection as failure } from "../helpers/failure.js";


/** A URL on which nothing listens: a server is started for a free port, then closed. */
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
    expect(info).to.deep.equal({ application: "minitia", version: "v1.1.0", lastBlockHeight: 42n, lastBlockAppHash: node.state.appHash });
  });

  it("reads the Cosmos chain id from status", async () => {
    node.state.network = "yominet-1";
    expect(await fetchCosmosChainId(node.url)).to.equal("yominet-1");
  });

  it("keeps a path prefix of the configured URL (a gateway)", async () => {
    const behindGateway = await startServer((request) =>
      request.url === "/cometbft/abci_info"
        ? { status: 200, body: JSON.stringify({ jsonrpc: "2.0", id: -1, result: { response: { data: "minitia", version: "v1.0.2", last_block_height: "1", last_block_app_hash: "" } } }) }
        : { status: 404, body: "{}" },
    );
    try {
      expect((await fetchAbciInfo(`${behindGateway.url}/cometbft/`)).version).to.equal("v1.0.2");
    } finally {
      await behindGateway.close();
    }
  });

  it("names the endpoint when it is unreachable", async () => {
    const url = await unreachableUrl();
    expect(await failure(fetchAbciInfo(url))).to.equal(`cannot reach ${url}/abci_info: ECONNREFUSED`);
  });

  it("reports an answer that is not JSON", async () => {
    node.state.mode = "not-json";
    expect(await failure(fetchAbciInfo(node.url))).to.equal(`${node.url}/abci_info did not answer JSON: <html>gateway</html>`);
  });

  it("reports a JSON-RPC error with its code and message", async () => {
    node.state.mode = "rpc-error";
    expect(await failure(fetchAbciInfo(node.url))).to.equal(`abci_info at ${node.url}/abci_info answered JSON-RPC error -32603: Internal error`);
  });

  it("names a missing field", async () => {
    node.state.mode = "missing-field";
    expect(await failure(fetchAbciInfo(node.url))).to.equal(`abci_info at ${node.url}/abci_info: result.response.version is missing`);
    expect(await failure(fetchCosmosChainId(node.url))).to.equal(`status at ${node.url}/status: result.node_info.network is missing`);
  });

  it("reports an HTTP error status", async () => {
    node.state.mode = "http-error";
    expect(await failure(fetchAbciInfo(node.url))).to.equal(`${node.url}/abci_info answered HTTP 500: internal error`);
  });

  it("never names more of a URL than its origin, which may carry an API key", () => {
    expect(describeEndpoint("https://user:secret@rpc.example.com/v2/KEY123?apikey=KEY456", "/abci_info")).to.equal(
      "https://rpc.example.com/abci_info",
    );
  });
});

describe("base-chain REST client", () => {
  let rest: L1RestStandIn;
  beforeEach(async () => (rest = await startL1RestStandIn({ stage: 21n })));
  afterEach(async () => rest.close());

  it("reads the current stage from the ModuleStore's move_resource JSON string", async () => {
    const stage = await fetchVipStage(rest.url, MAINNET_VIP_MODULE_ADDRESS);
    expect(stage).to.deep.equal({ stage: 21n, stageStartTime: 1700000000n, stageEndTime: 1700100000n });
  });

  it("says which module address was not found and what to check", async () => {
    const other = "0x1e90c1e45682a1b877035b8443879a0332651a8cc965e9417d5091b25906bf77";
    expect(await failure(fetchVipStage(rest.url, other))).to.equal(
      `the VIP module store was not found at ${other} on ${rest.url}: check VIP_MODULE_ADDRESS (vip.vipModuleAddress) against the base chain you query`,
    );
  });

  it("reports an answer that is not JSON", async () => {
    rest.state.mode = "not-json";
    expect(await failure(fetchVipStage(rest.url, MAINNET_VIP_MODULE_ADDRESS))).to.match(/did not answer JSON: upstream timeout$/);
  });

  it("names a missing stage inside move_resource", async () => {
    rest.state.mode = "missing-field";
    expect(await failure(fetchVipStage(rest.url, MAINNET_VIP_MODULE_ADDRESS))).to.match(/\(resource\.move_resource\): data\.stage is missing$/);
  });

  it("reports a move_resource that is not a JSON string", async () => {
    rest.state.mode = "bad-move-resource";
    expect(await failure(fetchVipStage(rest.url, MAINNET_VIP_MODULE_ADDRESS))).to.match(/resource\.move_resource is not a JSON string$/);
  });

  it("names the endpoint when it is unreachable", async () => {
    const url = await unreachableUrl();
    expect(await failure(fetchVipStage(url, MAINNET_VIP_MODULE_ADDRESS))).to.match(new RegExp(`^cannot reach ${url}/initia/move/v1/accounts/0x3a88.*: ECONNREFUSED$`));
  });
});
