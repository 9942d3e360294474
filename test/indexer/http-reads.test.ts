import type { Server } from "node:http";

import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { isVipError, VipError } from "../../tasks/errors.js";
import { httpReads } from "../../tasks/indexer/http-reads.js";
import {
  isRangeRefusal,
  rangeLimit,
  RollupReader,
} from "../../tasks/indexer/rpc.js";
import { isTransient } from "../../tasks/network/retry.js";
import {
  httpNetworkConfig,
  type StandInReply,
  startRpcStandIn,
} from "../helpers/rpc-stand-in.js";

/**
 * A node that answers each request with the next of `replies` (the last one
 * again when they run out).
 */
const node = (replies: StandInReply[]) =>
  startRpcStandIn(
    (_, n) => replies[Math.min(n, replies.length - 1)] ?? { body: "" },
  );

const httpConfig = httpNetworkConfig;

const result = (value: unknown): StandInReply => ({
  body: { jsonrpc: "2.0", id: 1, result: value },
});

/** What a call of `reads` answers, or the error it fails with. */
async function call(
  url: string,
  method = "eth_blockNumber",
  params: unknown[] = [],
  headers?: Record<string, string>,
): Promise<unknown> {
  const { provider } = await httpReads({
    ...httpConfig(url),
    ...(headers === undefined ? {} : { httpHeaders: headers }),
  });
  return provider.request({ method, params }).catch((error: unknown) => error);
}

/** What `count` calls of `method` answer in turn on one client, or the errors they fail with. */
async function answersInTurn(
  url: string,
  method: string,
  count: number,
  params: unknown[] = [],
): Promise<unknown[]> {
  const { provider } = await httpReads(httpConfig(url));
  const answers = [];
  for (let i = 0; i < count; i++)
    answers.push(
      await provider
        .request({ method, params })
        .catch((error: unknown) => error),
    );
  return answers;
}

describe("reading a rollup's node without a Hardhat connection", () => {
  const servers: Server[] = [];
  afterEach(() => servers.splice(0).forEach((s) => s.close()));

  it("sends one JSON-RPC call a request, with the network's headers, and answers its result", async () => {
    const n = await node([result("0x2a")]);
    servers.push(n.server);
    expect(await call(n.url, "eth_getBlockByNumber", ["0x1", false])).to.equal(
      "0x2a",
    );
    expect(n.seen).to.have.length(1);
    expect(n.seen[0]?.body).to.deep.include({
      jsonrpc: "2.0",
      method: "eth_getBlockByNumber",
      params: ["0x1", false],
    });
    expect(n.seen[0]?.headers).to.include({ authorization: "Bearer test" });
  });

  it("fails a call the node refused with the node's words, code and data, where a refused range is recognized", async () => {
    const n = await node([
      {
        body: {
          jsonrpc: "2.0",
          id: 1,
          error: { code: -32000, message: "block range exceeded 500" },
        },
      },
      {
        body: {
          jsonrpc: "2.0",
          id: 2,
          error: {
            code: -32005,
            message: "limit",
            data: "query returned more than 10000 results",
          },
        },
      },
    ]);
    servers.push(n.server);
    const [range, size] = await answersInTurn(n.url, "eth_getLogs", 2, [{}]);
    expect(
      isVipError(range, ERRORS.INDEXER.NODE.CALL_FAILED) && range.params,
      String(range),
    ).to.deep.equal({
      method: "eth_getLogs",
      reason: "block range exceeded 500",
    });
    expect(range).to.include({ rpcCode: -32000 });
    expect(isRangeRefusal(range)).to.equal(true);
    expect(rangeLimit(range)).to.equal(500n);
    expect(isTransient(range)).to.equal(false);
    expect(size).to.include({
      rpcCode: -32005,
      data: "query returned more than 10000 results",
    });
    expect(isRangeRefusal(size), "said in the error's data").to.equal(true);
  });

  it("says an HTTP status, an answer that is not JSON-RPC and an unreachable node as errors of the catalog, retried where worth it", async () => {
    const n = await node([
      { status: 503, body: "service unavailable" },
      { status: 404, body: "no such path" },
      { body: '{"jsonrpc":"2.0","id":1,"res' },
      { body: [{ jsonrpc: "2.0", id: 1, result: "0x1" }] },
    ]);
    servers.push(n.server);
    const [busy, missing, cut, list] = await answersInTurn(
      n.url,
      "eth_blockNumber",
      4,
    );
    expect(
      isVipError(busy, ERRORS.NETWORK.HTTP.HTTP_STATUS),
      String(busy),
    ).to.equal(true);
    expect(isTransient(busy)).to.equal(true);
    expect(
      isVipError(missing, ERRORS.NETWORK.HTTP.HTTP_STATUS) &&
        missing.params.status,
    ).to.equal(404);
    expect(isTransient(missing)).to.equal(false);
    expect(isVipError(cut, ERRORS.NETWORK.HTTP.NOT_JSON), String(cut)).to.equal(
      true,
    );
    expect(
      isVipError(list, ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER),
      String(list),
    ).to.equal(true);
    n.server.close();
    servers.length = 0;
    const down = await call(n.url);
    expect(
      isVipError(down, ERRORS.NETWORK.HTTP.UNREACHABLE),
      String(down),
    ).to.equal(true);
    expect(isTransient(down)).to.equal(true);
  });

  it("sends a URL's credentials as Basic authentication, and never names the URL's credentials, path or query in an error", async () => {
    const n = await node([{ status: 503, body: "service unavailable" }]);
    servers.push(n.server);
    const secret = (url: string) =>
      `${url.replace("http://", "http://operator:s3cret-pass@")}/v1/key-in-path?apikey=key-in-query`;
    const unavailable = await call(secret(n.url), undefined, undefined, {});
    expect(n.seen[0]?.headers).to.include({
      authorization: `Basic ${Buffer.from("operator:s3cret-pass").toString("base64")}`,
    });
    n.server.close();
    servers.length = 0;
    const down = await call(secret(n.url), undefined, undefined, {});
    for (const error of [unavailable, down]) {
      expect(error).to.be.instanceOf(Error);
      const text = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`;
      expect(text).to.include("127.0.0.1");
      for (const word of ["s3cret-pass", "key-in-path", "key-in-query"])
        expect(text).to.not.include(word);
    }
  });

  it("reads the chain id through the reader's retries, and refuses an answer that is not a quantity", async () => {
    const n = await node([
      { status: 503, body: "busy" },
      result("0x7a69"),
      result("31337"),
    ]);
    servers.push(n.server);
    const reads = await httpReads(httpConfig(n.url));
    const retried: string[] = [];
    const reader = new RollupReader(
      reads.provider,
      (what) => retried.push(what),
      reads.batch,
    );
    expect(await reader.chainId()).to.equal(31337n);
    expect(retried).to.deep.equal(["the chain id"]);
    const notQuantity = await reader.chainId().catch((error: unknown) => error);
    expect(
      isVipError(notQuantity, ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER),
      String(notQuantity),
    ).to.equal(true);
    expect(n.seen).to.have.length(3);
  });

  it("says a gateway's timeout or a too-large answer behind an error status in words the reader narrows a range on, and refuses an answer with neither result nor error", async () => {
    const n = await node([
      { status: 504, body: "" },
      {
        status: 413,
        body: {
          jsonrpc: "2.0",
          id: 2,
          error: {
            code: -32005,
            message: "query returned more than 10000 results",
          },
        },
      },
      { status: 401, body: "unauthorized" },
      { body: { message: "Unauthorized" } },
    ]);
    servers.push(n.server);
    const [timeout, tooLarge, unauthorized, notRpc] = await answersInTurn(
      n.url,
      "eth_getLogs",
      4,
      [{}],
    );
    expect(String(timeout)).to.include("HTTP 504: Gateway Timeout");
    expect(isRangeRefusal(timeout)).to.equal(true);
    expect(String(tooLarge)).to.include(
      "query returned more than 10000 results",
    );
    expect(isRangeRefusal(tooLarge)).to.equal(true);
    expect(isRangeRefusal(unauthorized)).to.equal(false);
    expect(
      isVipError(notRpc, ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER),
      String(notRpc),
    ).to.equal(true);
  });

  it("retries a 5xx and an answer cut short, not a 404, whatever the node's origin is named", async () => {
    // An origin with "json" and "500" in it must not make a 404 look like a
    // cut answer or an internal error.
    const url = "https://jsonrpc-500.example";
    const failures = [
      new VipError(ERRORS.NETWORK.HTTP.HTTP_STATUS, {
        url,
        status: 500,
        reason: "Internal Server Error",
      }),
      new VipError(ERRORS.NETWORK.HTTP.NOT_JSON, { url, body: '{"res' }),
      new VipError(ERRORS.NETWORK.HTTP.HTTP_STATUS, {
        url,
        status: 404,
        reason: "Not Found",
      }),
    ];
    const provider = {
      request: () => {
        const failure = failures.shift();
        return failure === undefined
          ? Promise.resolve("0x10")
          : Promise.reject(failure);
      },
    };
    const retried: string[] = [];
    const reader = new RollupReader(provider, (what) => retried.push(what));
    const missing = await reader.head().catch((error: unknown) => error);
    expect(retried, "the 500 and the cut answer").to.have.length(2);
    expect(
      isVipError(missing, ERRORS.NETWORK.HTTP.HTTP_STATUS) &&
        missing.params.status,
      String(missing),
    ).to.equal(404);
    expect(await reader.head()).to.equal(16n);
  });
});
