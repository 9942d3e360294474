import type { Server } from "node:http";

import { expect } from "chai";
import type { NetworkConfig } from "hardhat/types/config";

import { ERRORS } from "../../tasks/error-catalog.js";
import { isVipError } from "../../tasks/errors.js";
import { batchTransport } from "../../tasks/indexer/batch.js";
import { RollupReader } from "../../tasks/indexer/rpc.js";
import { isTransient } from "../../tasks/network/retry.js";
import {
  httpNetworkConfig,
  type StandInReply,
  startRpcStandIn,
} from "../helpers/rpc-stand-in.js";

/** A node whose answer to a batch is `reply(calls)`. */
const node = (
  reply: (calls: { id: number; method: string }[]) => StandInReply,
) => startRpcStandIn((body) => reply(body as { id: number; method: string }[]));

const httpConfig = (url: string) => httpNetworkConfig(url) as NetworkConfig;

const CALLS = [0, 1, 2].map((n) => ({
  method: "eth_getBlockByNumber",
  params: [`0x${n.toString(16)}`, false],
}));

describe("JSON-RPC batches for block headers", () => {
  const servers: Server[] = [];
  afterEach(() => servers.splice(0).forEach((s) => s.close()));

  it("sends one request and returns the results in the calls' order, whatever order the node answers in", async () => {
    const n = await node((calls) => ({
      body: [...calls]
        .reverse()
        .map((c) => ({ jsonrpc: "2.0", id: c.id, result: `block ${c.id}` })),
    }));
    servers.push(n.server);
    const send = await batchTransport(httpConfig(n.url));
    expect(await send?.(CALLS)).to.deep.equal([
      "block 0",
      "block 1",
      "block 2",
    ]);
    expect(n.seen).to.have.length(1);
    expect(n.seen[0]).to.nested.include({
      "headers.authorization": "Bearer test",
    });
  });

  it("fails the batch when one call fails, an answer is missing, or the node refuses the whole batch", async () => {
    const answers = [
      {
        body: [
          { jsonrpc: "2.0", id: 0, result: null },
          {
            jsonrpc: "2.0",
            id: 1,
            error: { code: -32000, message: "header not found" },
          },
          { jsonrpc: "2.0", id: 2, result: null },
        ],
      },
      { body: [{ jsonrpc: "2.0", id: 0, result: null }] },
      {
        body: {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: "batch too large" },
        },
      },
    ];
    let next = 0;
    const n = await node(() => answers[next++] ?? { body: [] });
    servers.push(n.server);
    const send = await batchTransport(httpConfig(n.url));
    const failures = [];
    for (let i = 0; i < answers.length; i++)
      failures.push(
        await send?.(CALLS).then(
          () => "answered",
          (error: unknown) => error,
        ),
      );
    const [call, missing, refused] = failures;
    expect(
      isVipError(call, ERRORS.INDEXER.BATCH.BATCH_CALL_FAILED) && call.params,
      String(call),
    ).to.deep.equal({
      method: "eth_getBlockByNumber",
      reason: "header not found",
    });
    expect(
      isVipError(missing, ERRORS.INDEXER.BATCH.BATCH_ANSWER_INCOMPLETE) &&
        missing.params,
      String(missing),
    ).to.deep.equal({ count: 3, method: "eth_getBlockByNumber", id: 1 });
    expect(
      isVipError(refused, ERRORS.INDEXER.BATCH.BATCH_REFUSED) && refused.params,
      String(refused),
    ).to.deep.equal({ count: 3, reason: "batch too large" });
  });

  it("sends a URL's credentials as Basic authentication, and never names the URL's credentials, path or query in an error", async () => {
    let cut = false;
    const n = await node(() =>
      cut
        ? { body: '[{"jsonrpc":"2.0","id":0,"res' }
        : { status: 503, body: "service unavailable" },
    );
    servers.push(n.server);
    const secretUrl = n.url.replace("http://", "http://operator:s3cret-pass@");
    const send = await batchTransport({
      ...httpConfig(`${secretUrl}/v1/key-in-path?apikey=key-in-query`),
      httpHeaders: {},
    } as NetworkConfig);
    const unavailable = await send?.(CALLS).catch((e: unknown) => e);
    expect(n.seen[0]).to.nested.include({
      "headers.authorization": `Basic ${Buffer.from("operator:s3cret-pass").toString("base64")}`,
    });
    expect(isTransient(unavailable), String(unavailable)).to.equal(true);
    cut = true;
    const truncated = await send?.(CALLS).catch((e: unknown) => e);
    expect(truncated).to.be.instanceOf(SyntaxError);
    for (const error of [unavailable, truncated]) {
      const text = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`;
      for (const secret of ["s3cret-pass", "key-in-path", "key-in-query"])
        expect(text).to.not.include(secret);
    }
  });

  it("falls back to a request per block on a gateway that takes no batches, and says so once", async () => {
    const n = await node(() => ({ status: 405, body: "batches not allowed" }));
    servers.push(n.server);
    const single: string[] = [];
    const provider = {
      request: ({ params }: { method: string; params?: unknown[] }) => {
        const tag = String(params?.[0]);
        single.push(tag);
        return Promise.resolve({
          hash: `0x${BigInt(tag).toString(16).padStart(64, "0")}`,
          timestamp: tag,
        });
      },
    };
    const warnings: string[] = [];
    const reader = new RollupReader(
      provider,
      (what) => warnings.push(what),
      await batchTransport(httpConfig(n.url)),
    );
    const numbers = Array.from({ length: 150 }, (_, i) => BigInt(i + 1));
    const headers = await reader.blocks(numbers);
    expect(headers.map((h) => h?.time)).to.deep.equal(numbers);
    expect(await reader.blocks([7n])).to.deep.equal([
      { number: 7n, hash: `0x${"7".padStart(64, "0")}`, time: 7n },
    ]);
    expect(n.seen, "the batch was tried once").to.have.length(1);
    expect(single).to.have.length(151);
    expect(warnings).to.deep.equal(["blocks 1–100 in one batch request"]);
  });

  it("is none on Hardhat's in-process network", async () => {
    expect(
      await batchTransport({ type: "edr-simulated" } as NetworkConfig),
    ).to.equal(undefined);
  });
});
