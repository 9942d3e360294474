import { expect } from "chai";

import { RouterClient, RouterError } from "../../tasks/clients/router.js";
import { ERRORS } from "../../tasks/error-catalog.js";
import {
  opinitRoute,
  startRouterStandIn,
  swapAndTransferRoute,
  type RouterStandIn,
} from "../../tasks/stand-ins/router.js";
import { failure, refusal } from "../helpers/failure.js";
import { runHardhat } from "../helpers/hardhat-cli.js";

const L2_INIT =
  "l2/2588fd87a8e081f6a557f43ff14f05dddf5e34cb27afcefd6eaf81f1daea30d0";
const ROUTE = {
  source_asset_chain_id: "interwoven-1",
  source_asset_denom: "uinit",
  dest_asset_chain_id: "rehearsal-1",
  dest_asset_denom: L2_INIT,
  amount_in: "1000000",
};
const API_KEY = "router-secret-key-0123456789";

describe("the routing API client, against the stand-in router", () => {
  let router: RouterStandIn;
  let client: RouterClient;

  before(async () => {
    router = await startRouterStandIn({
      routes: [
        opinitRoute({
          from: "interwoven-1",
          to: "rehearsal-1",
          denomIn: "uinit",
          denomOut: L2_INIT,
          bridgeId: "16",
          amountIn: 1_000_000n,
          opHook: true,
        }),
      ],
    });
    client = new RouterClient(router.url, {
      apiKey: API_KEY,
      minDelayMs: 1,
      retries: 3,
    });
  });

  after(() => router.close());

  beforeEach(() => {
    router.state.faults = [];
    router.state.calls = {};
    router.state.authorizations = [];
  });

  it("checks a route on arrival and sends the API key as the authorization header", async () => {
    const route = await client.route(ROUTE);
    expect(route.required_op_hook).to.equal(true);
    expect(route.operations[0]).to.have.property("op_init_transfer");
    expect(route.estimated_route_duration_seconds).to.equal(90);
    expect(router.state.authorizations).to.deep.equal([API_KEY]);
  });

  it("retries the read-only route on 429, 500 and a dropped connection, bounded", async () => {
    router.state.faults = ["429", "500", "drop"];
    const route = await client.route(ROUTE);
    expect(route.amount_out).to.equal("1000000");
    expect(router.state.calls["POST /v2/fungible/route"]).to.equal(4);

    router.state.faults = ["500", "500", "500", "500", "500"];
    const failed = await refusal(
      client.route(ROUTE),
      ERRORS.NETWORK.ROUTER.ROUTER_HTTP_STATUS,
    );
    expect(failed.params).to.deep.include({
      status: 500,
      reason: "internal error",
    });
    expect(router.state.calls["POST /v2/fungible/route"]).to.equal(4 + 4);
  });

  it("reads the chain list with the REST endpoints Initia's router adds, retried, and names a malformed list", async () => {
    router.state.chainList = [
      {
        chain_id: "rehearsal-1",
        chain_name: "rehearsal",
        rest: "https://rest.rehearsal.example",
      },
      { chain_id: "osmosis-1", chain_name: "osmosis" },
    ];
    router.state.faults = ["500"];
    const chains = await client.chains();
    expect(chains.map((c) => [c.chain_id, c.rest, c.chain_type])).to.deep.equal(
      [
        ["rehearsal-1", "https://rest.rehearsal.example", "cosmos"],
        ["osmosis-1", undefined, "cosmos"],
      ],
    );
    expect(router.state.calls["GET /v2/info/chains"]).to.equal(2);
    router.state.canned["GET /v2/info/chains"] = [
      { status: 200, answer: { chains: "none" } },
    ];
    const malformed = await refusal(
      client.chains(),
      ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER,
    );
    expect(malformed.params.what).to.match(/\/v2\/info\/chains$/);
    expect(malformed.params.field).to.equal("chains");
    router.state.canned = {};
    router.state.chainList = [];
  });

  it("does not repeat msgs or track on a failure", async () => {
    router.state.faults = ["500"];
    const error = await client.track("0xabc", "1").catch((e: unknown) => e);
    expect(error).to.be.instanceOf(RouterError);
    expect((error as RouterError).status).to.equal(500);
    expect(router.state.calls["POST /v2/tx/track"]).to.equal(1);
  });

  it("turns an error body into its status, message and Initia's info, and names a malformed field by path", async () => {
    const unknown = await refusal(
      client.route({ ...ROUTE, dest_asset_denom: "unknown" }),
      ERRORS.NETWORK.ROUTER.ROUTER_HTTP_STATUS,
    );
    expect(unknown).to.be.instanceOf(RouterError);
    const { endpoint, status, reason, info } = unknown as RouterError;
    expect(endpoint).to.match(
      /^POST http:\/\/127\.0\.0\.1:\d+\/v2\/fungible\/route$/,
    );
    expect({ status, reason, info }).to.deep.equal({
      status: 400,
      reason:
        "no routes found for uinit on interwoven-1 to unknown on rehearsal-1",
      info: "check the denoms and chain ids",
    });
    expect(
      router.state.calls["POST /v2/fungible/route"],
      "a 400 is not retried",
    ).to.equal(1);
    router.state.faults = ["malformed"];
    const malformed = await refusal(
      client.route(ROUTE),
      ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER,
    );
    expect(malformed.params.what).to.match(/\/v2\/fungible\/route$/);
    expect(malformed.params).to.deep.include({
      field: "operations",
      problem: "is missing",
    });
  });
});

describe("bridge:route", () => {
  let router: RouterStandIn;
  let env: Record<string, string>;
  const args = [
    "bridge:route",
    "--network",
    "rollup",
    "--from-chain",
    "interwoven-1",
    "--from-denom",
    "uinit",
    "--to-chain",
    "rehearsal-1",
    "--to-denom",
    L2_INIT,
    "--amount",
    "1000000",
  ];

  before(async () => {
    router = await startRouterStandIn({
      routes: [
        opinitRoute({
          from: "interwoven-1",
          to: "rehearsal-1",
          denomIn: "uinit",
          denomOut: L2_INIT,
          bridgeId: "16",
          amountIn: 1_000_000n,
          opHook: true,
        }),
      ],
    });
    env = { ROUTER_URL: router.url, ROUTER_API_KEY: API_KEY };
  });

  after(() => router.close());

  it("asks for a route with what Initia's wallet sends: the amount and the four asset fields, and is_op_withdraw only when asked", async () => {
    router.state.routeRequests = [];
    expect((await runHardhat(args, env)).code).to.equal(0);
    expect((await runHardhat([...args, "--op-withdraw"], env)).code).to.equal(
      0,
    );
    const fields = {
      source_asset_chain_id: "interwoven-1",
      source_asset_denom: "uinit",
      dest_asset_chain_id: "rehearsal-1",
      dest_asset_denom: L2_INIT,
      amount_in: "1000000",
    };
    expect(router.state.routeRequests).to.deep.equal([
      fields,
      { ...fields, is_op_withdraw: true },
    ]);
  });

  it("prints the route as a person reads it, and never the API key", async () => {
    const result = await runHardhat(args, env);
    expect(result.code, result.output).to.equal(0);
    expect(result.stdout).to.match(
      /^amount in\s+1000000 uinit on interwoven-1$/m,
    );
    expect(result.stdout).to.match(
      new RegExp(`^expected out\\s+1000000 ${L2_INIT} on rehearsal-1$`, "m"),
    );
    expect(result.stdout).to.match(
      /^hops\s+1\. OPinit bridge 16: interwoven-1 → rehearsal-1, uinit → l2\/\w+, 1000000 → 1000000 \(tx 1\)$/m,
    );
    expect(result.stdout).to.match(/^transactions\s+1 to sign/m);
    expect(result.stdout).to.match(/^estimated duration\s+1 min 30 s$/m);
    expect(result.stdout).to.match(/^op hook\s+required/m);
    expect(result.output).to.not.include(API_KEY);
    expect(router.state.authorizations).to.include(API_KEY);
  });

  it("describes a swap and an IBC transfer, their fees and the route's warning", async () => {
    router.state.routes.push(
      swapAndTransferRoute({
        from: "1",
        to: "osmosis-1",
        denomIn: "0xToken",
        swapDenom: "0xUsdc",
        denomOut: "ibc/USDC",
        amountIn: 1_000_000n,
      }),
    );
    const result = await runHardhat(
      [
        "bridge:route",
        "--network",
        "rollup",
        "--from-chain",
        "1",
        "--from-denom",
        "0xToken",
        "--to-chain",
        "osmosis-1",
        "--to-denom",
        "ibc/USDC",
        "--amount",
        "1000000",
      ],
      env,
    );
    expect(result.code, result.output).to.equal(0);
    expect(result.stdout).to.match(
      /^hops\s+1\. swap on uniswap: 1 → 1, 0xToken → 0xUsdc, 1000000 → 990000 \(tx 1\)$/m,
    );
    expect(result.stdout).to.match(
      /^\s+2\. IBC transfer\/channel-7: 1 → osmosis-1, 0xUsdc → ibc\/USDC, 990000 → 990000 \(tx 1\)$/m,
    );
    expect(result.stdout).to.match(
      /^fees\s+2500 0xToken \(TEST\) \(SMART_RELAY\)$/m,
    );
    expect(result.stdout).to.match(/^beyond the amount\s+gas only$/m);
    expect(result.stdout).to.match(
      /^warning\s+BAD_PRICE_WARNING: the swap's price impact is 1%$/m,
    );
    expect(result.stdout).to.match(/^estimated duration\s+10 min$/m);
  });

  it("prints the checked response with --json", async () => {
    const result = await runHardhat([...args, "--json"], env);
    expect(result.code, result.output).to.equal(0);
    const route = JSON.parse(result.stdout);
    expect(route.operations[0].op_init_transfer.op_init_bridge_id).to.equal(
      "16",
    );
    expect(route.required_op_hook).to.equal(true);
  });

  it("exits non-zero with the API's message for an unknown denom, and names a missing option", async () => {
    const unknown = await runHardhat(
      [...args.slice(0, -4), "--to-denom", "nope", "--amount", "1000000"],
      env,
    );
    expect(failure(unknown, ERRORS.NETWORK.ROUTER.ROUTER_HTTP_STATUS))
      .to.include(" 400")
      .and.include(
        "no routes found for uinit on interwoven-1 to nope on rehearsal-1",
      );
    const missing = await runHardhat(args.slice(0, -2), env);
    expect(failure(missing, ERRORS.CONFIG.OPTIONS.OPTION_REQUIRED)).to.include(
      "--amount",
    );
    const noRouter = await runHardhat(args, {});
    expect(failure(noRouter, ERRORS.CONFIG.SETTINGS.SETTING_NOT_SET))
      .to.include('vip.routerUrl of network "rollup"')
      .and.include("ROUTER_URL");
  });
});
