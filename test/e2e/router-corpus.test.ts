import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import {
  RouterClient,
  RouterError,
  routeSchema,
} from "../../tasks/clients/router.js";
import { checkMsg } from "../../tasks/cosmos/amino.js";
import { ERRORS } from "../../tasks/error-catalog.js";
import { defined, isVipError } from "../../tasks/errors.js";
import { Journal } from "../../tasks/journal/journal.js";
import {
  startRouterStandIn,
  type RouterStandIn,
} from "../../tasks/stand-ins/router.js";
import { describeRoute } from "../../tasks/transfer/describe.js";
import { trackOnce } from "../../tasks/transfer/follow.js";
import type { TransferRecord } from "../../tasks/transfer/records.js";
import { viewStatus } from "../../tasks/transfer/status.js";
import { failure } from "../helpers/failure.js";
import { PROJECT_ROOT, runHardhat } from "../helpers/hardhat-cli.js";

const CORPUS = path.join(PROJECT_ROOT, "test", "corpus", "router");

interface CorpusAnswer {
  source: string;
  status: number;
  answer: unknown;
}

function corpus(name: string): CorpusAnswer {
  return JSON.parse(
    readFileSync(path.join(CORPUS, `${name}.json`), "utf8"),
  ) as CorpusAnswer;
}

/**
 * Every corpus file whose name starts with `prefix` (e.g. every documented
 * status answer).
 */
function corpusOf(pattern: RegExp): [string, CorpusAnswer][] {
  return readdirSync(CORPUS)
    .filter((f) => pattern.test(f))
    .map((f) => [f.replace(/\.json$/, ""), corpus(f.replace(/\.json$/, ""))]);
}

const HASH = "9F2E4C1A0B7D3E5F6A8B9C0D1E2F3A4B5C6D7E8F9A0B1C2D3E4F5A6B7C8D9E0F";

describe("the routing API as the published documents allow it to answer (test/corpus/router)", () => {
  let router: RouterStandIn;
  let client: RouterClient;
  let journalDir: string;

  before(async () => {
    router = await startRouterStandIn();
    client = new RouterClient(router.url, { minDelayMs: 1, retries: 1 });
    journalDir = await mkdtemp(path.join(tmpdir(), "vip-corpus-journal-"));
  });
  after(async () => {
    await router.close();
    await rm(journalDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    router.state.canned = {};
    router.state.tracked = {};
    router.state.calls = {};
  });

  const serve = (endpoint: string, ...names: string[]) =>
    (router.state.canned[endpoint] = names.map((n) => corpus(n)));
  const env = () => ({ ROUTER_URL: router.url });
  const status = (...extra: string[]) =>
    runHardhat(
      [
        "bridge:status",
        "--network",
        "rollup",
        "--tx",
        HASH,
        "--chain",
        "interwoven-1",
        "--journal-dir",
        journalDir,
        "--poll-interval",
        "0.05",
        ...extra,
      ],
      env(),
    );
  const journalled = async (): Promise<{ type: string; state?: string }[]> => {
    const dir = path.join(journalDir, "transfers");
    const file = defined(
      (await readdir(dir)).find((f) => f.includes(HASH.toLowerCase())),
      "(await readdir(dir)).find((f) => f.includes(HASH.toLowerC...",
    );
    const records = (await readFile(path.join(dir, file), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; state?: string });
    await rm(path.join(dir, file));
    return records;
  };

  describe("status: every successful answer of the documents ends in success, journalled", () => {
    const successes = corpusOf(
      /^(skip|initia)\.v2-tx-status\.200|^schema\.v2-tx-status\.200\.success/,
    );
    it("the corpus holds the documents' own status examples", () =>
      expect(successes.length).to.be.at.least(5));
    for (const [name, entry] of successes) {
      it(`${name}: ${entry.source}`, async () => {
        router.state.tracked[HASH] = 1;
        // The tracker walks it through submitted and pending first, as a real
        // transfer goes.
        serve(
          "GET /v2/tx/status",
          "schema.v2-tx-status.200.submitted",
          "schema.v2-tx-status.200.pending-opinit",
          name,
        );
        const result = await status();
        expect(result.code, result.output).to.equal(0);
        expect(result.stdout).to.match(
          new RegExp(`^done\\s+${HASH}: STATE_COMPLETED_SUCCESS$`, "m"),
        );
        const records = await journalled();
        expect(records.at(-1)).to.deep.include({
          type: "done",
          state: "STATE_COMPLETED_SUCCESS",
        });
        expect(
          records.filter((r) => r.type === "status").map((r) => r.state),
        ).to.deep.equal([
          "STATE_SUBMITTED",
          "STATE_PENDING",
          "STATE_COMPLETED_SUCCESS",
        ]);
      });
    }
  });

  it("a hop in Initia's flat form and in Skip's wrappers is shown with its state", async () => {
    const flat = viewStatus(corpus("initia.v2-tx-status.200").answer as never);
    expect(flat.hops).to.deep.equal([
      {
        kind: "transfer",
        from: "interwoven-1",
        to: "8453",
        state: "TRANSFER_SUCCESS",
        error: undefined,
      },
    ]);
    const skip = viewStatus(
      corpus("skip.v2-tx-status.200.transfer-from-cosmoshub-to-avalanche")
        .answer as never,
    );
    expect(
      skip.state,
      "no top-level state: the transfers' states decide",
    ).to.equal("STATE_COMPLETED_SUCCESS");
    expect(skip.hops.map((h) => [h.kind, h.from, h.to, h.state])).to.deep.equal(
      [
        ["ibc_transfer", "cosmoshub-4", "osmosis-1", "TRANSFER_SUCCESS"],
        ["axelar_transfer", "osmosis-1", "43114", "AXELAR_TRANSFER_SUCCESS"],
      ],
    );
    expect(skip.release).to.deep.equal({
      chain_id: "43114",
      denom: "wavax-wei",
      released: true,
    });
  });

  it("STATE_ABANDONED is not the end: the message says how to check, and bridge:status asks again later to success", async () => {
    router.state.tracked[HASH] = 1;
    serve("GET /v2/tx/status", "schema.v2-tx-status.200.abandoned");
    const abandoned = await status();
    expect(failure(abandoned, ERRORS.NETWORK.ROUTER.TRANSFER_ABANDONED))
      .to.include(HASH)
      .and.include(" on interwoven-1")
      .and.include("https://scan.example/1/txs/0xefef")
      .and.include(`bridge:status --tx ${HASH} --chain interwoven-1`);
    serve(
      "GET /v2/tx/status",
      "schema.v2-tx-status.200.success-release-without-amount",
    );
    const later = await status();
    expect(later.code, later.output).to.equal(0);
    const records = await journalled();
    expect(
      records.filter((r) => r.type === "done").map((r) => r.state),
    ).to.deep.equal(["STATE_COMPLETED_SUCCESS"]);
    expect(
      records.filter((r) => r.type === "status").map((r) => r.state),
    ).to.deep.equal(["STATE_ABANDONED", "STATE_COMPLETED_SUCCESS"]);
  });

  it("STATE_UNKNOWN is an error at once, not a reason to poll until the timeout", async () => {
    router.state.tracked[HASH] = 1;
    serve("GET /v2/tx/status", "schema.v2-tx-status.200.unknown");
    const unknown = await status("--timeout", "600");
    expect(
      failure(unknown, ERRORS.NETWORK.ROUTER.TRANSFER_STATE_UNKNOWN),
    ).to.include(HASH);
    expect(router.state.calls["GET /v2/tx/status"]).to.be.at.most(2);
    expect((await journalled()).some((r) => r.type === "done")).to.equal(false);
  });

  it("a failure shows the hop's own error and where the assets are, with or without an amount", async () => {
    router.state.tracked[HASH] = 1;
    serve(
      "GET /v2/tx/status",
      "schema.v2-tx-status.200.completed-error-packet-error",
    );
    const failed = await status();
    expect(failed.stdout).to.match(
      /^hop 1\s+ibc_transfer interwoven-1 → noble-1: TRANSFER_FAILURE \(error: ABCI code: 5: insufficient funds \(PACKET_ERROR_ACKNOWLEDGEMENT\)\)$/m,
    );
    expect(failure(failed, ERRORS.NETWORK.ROUTER.TRANSFER_FAILED))
      .to.include(HASH)
      .and.include("STATE_COMPLETED_ERROR")
      .and.include("noble-1")
      .and.include("1000000 uinit released on interwoven-1");
    await journalled();

    router.state.tracked[HASH] = 1;
    serve(
      "GET /v2/tx/status",
      "schema.v2-tx-status.200.pending-error-amount-null",
    );
    const pending = await status();
    expect(failure(pending, ERRORS.NETWORK.ROUTER.TRANSFER_FAILED))
      .to.include(HASH)
      .and.include("STATE_PENDING_ERROR")
      .and.include("insufficient fee")
      .and.include("the uinit to be released on interwoven-1");
    await journalled();
  });

  it("a 404 saying the chain is not supported is an error at once, not 'not indexed yet'", async () => {
    router.state.tracked[HASH] = 1;
    serve("GET /v2/tx/status", "schema.v2-tx-status.404.chain-not-supported");
    const result = await status();
    expect(failure(result, ERRORS.NETWORK.ROUTER.ROUTER_HTTP_STATUS))
      .to.include("/v2/tx/status")
      .and.include(" 404")
      .and.include("chain ID not supported");
    expect(router.state.calls["GET /v2/tx/status"]).to.equal(1);
  });

  it("track: Skip's documented 404 for an unsupported chain is final at once, not retried as 'not seen yet'", async () => {
    serve("POST /v2/tx/track", "skip.v2-tx-track.404");
    const journal = await Journal.open<TransferRecord>(
      path.join(journalDir, "track-404.jsonl"),
    );
    const silent = { line: () => {}, warn: () => {} };
    const error = await trackOnce(
      client,
      journal,
      HASH,
      "interwoven-1",
      silent,
    ).then(
      () => "tracked",
      (e: unknown) => e,
    );
    if (!isVipError(error, ERRORS.NETWORK.ROUTER.TRACKING_FAILED))
      expect.fail(`expected tracking to fail, got: ${String(error)}`);
    expect(error.params).to.deep.include({
      hash: HASH,
      chainId: "interwoven-1",
    });
    expect(error.params.reason)
      .to.include("/v2/tx/track")
      .and.include(" 404")
      .and.include("chain ID not supported");
    expect(router.state.calls["POST /v2/tx/track"]).to.equal(1);
  });

  describe("route: every documented route is described, every fee with its asset and USD value", () => {
    for (const [name, entry] of corpusOf(/v2-fungible-route\.200/)) {
      it(`${name}: ${entry.source}`, async () => {
        serve("POST /v2/fungible/route", name);
        const answer = entry.answer as Record<string, string>;
        const result = await runHardhat(
          [
            "bridge:route",
            "--network",
            "rollup",
            "--from-chain",
            defined(
              answer.source_asset_chain_id,
              "answer.source_asset_chain_id",
            ),
            "--from-denom",
            defined(answer.source_asset_denom, "answer.source_asset_denom"),
            "--to-chain",
            defined(answer.dest_asset_chain_id, "answer.dest_asset_chain_id"),
            "--to-denom",
            defined(answer.dest_asset_denom, "answer.dest_asset_denom"),
            "--amount",
            defined(answer.amount_in, "answer.amount_in"),
          ],
          env(),
        );
        expect(result.code, result.output).to.equal(0);
        expect(result.stdout).to.match(/^amount in\s+\d+ /m);
        expect(result.stdout).to.match(/^beyond the amount\s+/m);
      });
    }

    it("names every operation kind and its fee, and sums what comes on top of the amount", () => {
      const route = routeSchema.parse(
        corpus("schema.v2-fungible-route.200.every-operation-kind").answer,
      );
      const text = describeRoute(route).join("\n");
      for (const expected of [
        "1. IBC transfer/channel-0: interwoven-1 → noble-1, uinit → ibc/INIT, 10000000 → 10000000 (tx 1)",
        "2. bank send on noble-1 of uusdc, 9900000 → 9900000 (tx 1)",
        "3. swap on noble-dex: noble-1 → noble-1, ibc/INIT → uusdc, 10000000 → 9950000 (tx 1)",
        "affiliate fee 1500 uusdc, taken from the amount",
        "4. EVM swap on uniswap: 1 → 1, 0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48 → ethereum-native, 9900000 → 9890000 (tx 1)",
        "5. Axelar (uusdc): noble-1 → 1, uusdc → 0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48, 9950000 → 9924000 (tx 1)",
        "axelar fee 26000000 uusdc (USDC) ($26.00), taken from the amount",
        "6. CCTP (burns uusdc): noble-1 → 8453, uusdc → 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
        "smart relay fee 60000 uusdc, paid on top of the amount (listed in the fees below)",
        "7. Hyperlane: celestia → 169, utia → hyperlane/utia (tx 1)",
        "hyperlane fee 12000 utia (TIA) ($0.05), taken from the amount",
        "8. Go Fast: 8453 → noble-1, uusdc → uusdc (tx 1)",
        "Go Fast fee 9864 uusdc (USDC) ($0.01), taken from the amount",
        "Go Fast source-chain fee 20000 uusdc (USDC) ($0.02)",
        "Go Fast destination-chain fee 30000 uusdc (USDC) ($0.03)",
        "9. Stargate: 1 → 8453, ethereum-native → base-native (tx 1)",
        "Stargate OFT fee 100000000000000 ethereum-native (ETH) ($0.30), taken from the amount",
        "Stargate messaging fee 200000000000000 ethereum-native (ETH) ($0.60)",
        "10. LayerZero: 1 → 8453, 0x3 → 0x4 (tx 1)",
        "LayerZero messaging fee 300000000000000 ethereum-native (ETH) ($0.90), paid on top of the amount",
        "11. IBC Eureka: 1 → cosmoshub-4, 0x5 → uatom (tx 1)",
        "smart relay fee 4000 0x5, taken from the amount",
        "12. OPinit bridge 16: interwoven-1 → rehearsal-1, uinit → l2/rehearsal (tx 1)",
        "13. future_bridge_transfer: a-1 → b-1, ua → ub (tx 1)",
        "future bridge fee 7 ufee, paid on top of the amount",
        "estimated duration    not given",
        "fees                  5000 uinit (INIT) (fee, $0.005, deducted from the amount)",
        "60000 uusdc (USDC) (SMART_RELAY, $0.06, charged on top of the amount)",
      ]) {
        expect(text, expected).to.include(expected);
      }
      // On top: the additional smart relay fee (counted once), LayerZero's
      // messaging fee in ETH, the unknown bridge's.
      expect(text).to.match(
        /^beyond the amount\s+60000 uusdc \(USDC\) \+ 300000000000000 ethereum-native \(ETH\) \+ 7 ufee, plus gas$/m,
      );
    });
  });

  it("msgs: Skip's IBC MsgTransfer keeps its timeout_timestamp to the last digit; Initia's empty example is refused by name", async () => {
    serve("POST /v2/fungible/msgs", "skip.v2-fungible-msgs.200");
    const skip = await client.msgs({} as never);
    const tx = defined(skip.txs[0], "skip.txs[0]");
    expect("cosmos_tx" in tx).to.equal(true);
    const msg = defined(
      (tx as { cosmos_tx: { msgs: { msg_type_url: string; msg: string }[] } })
        .cosmos_tx.msgs[0],
      "( tx as { cosmos_tx: { msgs: { msg_type_url: string; msg:...",
    );
    expect(
      checkMsg(msg, "transaction 1, message 1").full.timeout_timestamp,
    ).to.equal("1688663426558649000");
    expect(
      JSON.parse(msg.msg).timeout_timestamp,
      "JSON.parse alone rounds it",
    ).to.not.equal(1688663426558649000n.toString());

    serve(
      "POST /v2/fungible/msgs",
      "schema.v2-fungible-msgs.200.approvals-null",
    );
    const evm = await client.msgs({} as never);
    expect(
      (evm.txs[0] as { evm_tx: { required_erc20_approvals: unknown[] } }).evm_tx
        .required_erc20_approvals,
    ).to.deep.equal([]);

    serve("POST /v2/fungible/msgs", "initia.v2-fungible-msgs.200");
    const empty = await client.msgs({} as never).catch((e: unknown) => e);
    if (!isVipError(empty, ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER))
      expect.fail(`expected an unexpected answer, got: ${String(empty)}`);
    expect(empty.params.what).to.match(
      /^POST http:\/\/127\.0\.0\.1:\d+\/v2\/fungible\/msgs$/,
    );
    expect(empty.params).to.deep.include({
      field: "txs[0].cosmos_tx.msgs",
      problem: "Array must contain at least 1 element(s)",
    });
  });

  it("chains: every documented list is read, and a chain with rest null fails only its own lookup", async () => {
    for (const name of [
      "skip.v2-info-chains.200",
      "initia.v2-info-chains.200",
      "schema.v2-info-chains.200.rest-null",
    ]) {
      serve("GET /v2/info/chains", name);
      const chains = await client.chains();
      expect(chains.length, name).to.be.at.least(1);
    }
    expect(
      (await client.chains()).find((c) => c.chain_id === "odd-1")?.rest,
    ).to.equal(null);
  });

  it("track and the error bodies: every documented answer is read; errors carry their message", async () => {
    for (const name of ["skip.v2-tx-track.200", "initia.v2-tx-track.200"]) {
      serve("POST /v2/tx/track", name);
      expect((await client.track(HASH, "interwoven-1")).explorer_link).to.match(
        /^https:\/\//,
      );
    }
    for (const [name, entry] of corpusOf(
      /^skip\.v2-(fungible-route|fungible-msgs|tx-track|tx-status)\.(400|404|500)/,
    )) {
      const endpoint = name.includes("route")
        ? "POST /v2/fungible/route"
        : name.includes("msgs")
          ? "POST /v2/fungible/msgs"
          : name.includes("track")
            ? "POST /v2/tx/track"
            : "GET /v2/tx/status";
      router.state.canned[endpoint] = [entry];
      router.state.tracked[HASH] = 1;
      const call =
        endpoint === "POST /v2/fungible/route"
          ? client.route({
              source_asset_chain_id: "a",
              source_asset_denom: "b",
              dest_asset_chain_id: "c",
              dest_asset_denom: "d",
              amount_in: "1",
            })
          : endpoint === "POST /v2/fungible/msgs"
            ? client.msgs({} as never)
            : endpoint === "POST /v2/tx/track"
              ? client.track(HASH, "interwoven-1")
              : client.status(HASH, "interwoven-1");
      const error = await call.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, name).to.be.instanceOf(RouterError);
      expect(
        isVipError(error, ERRORS.NETWORK.ROUTER.ROUTER_HTTP_STATUS),
        name,
      ).to.equal(true);
      expect((error as RouterError).status, name).to.equal(entry.status);
      expect((error as RouterError).reason, name).to.include(
        (entry.answer as { message: string }).message.slice(0, 40),
      );
    }
  });
});
