import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { expect } from "chai";
import type { NetworkConfig } from "hardhat/types/config";

import { batchTransport } from "../../tasks/activity/batch.js";
import { isTransient } from "../../tasks/network/retry.js";

/**
 * A node on 127.0.0.1 that answers every request with `reply(calls)`: what a
 * JSON-RPC 2.0 server may answer a batch with.
 */
async function node(
  reply: (calls: { id: number; method: string }[]) => {
    status?: number;
    body: unknown;
  },
): Promise<{ url: string; server: Server; seen: unknown[] }> {
  const seen: unknown[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const calls = JSON.parse(body) as { id: number; method: string }[];
      seen.push({ calls, headers: req.headers });
      const answer = reply(calls);
      res.writeHead(answer.status ?? 200, {
        "content-type": "application/json",
      });
      res.end(
        typeof answer.body === "string"
          ? answer.body
          : JSON.stringify(answer.body),
      );
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve()),
  );
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, seen };
}

function httpConfig(url: string): NetworkConfig {
  return {
    type: "http",
    url: { _type: "ResolvedConfigurationVariable", get: async () => url },
    httpHeaders: { authorization: "Bearer test" },
    timeout: 5_000,
  } as unknown as NetworkConfig;
}

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
          (error: unknown) => (error instanceof Error ? error.message : ""),
        ),
      );
    expect(failures[0]).to.match(/eth_getBlockByNumber: header not found/);
    expect(failures[1]).to.match(/lacks eth_getBlockByNumber #1/);
    expect(failures[2]).to.match(/refused a batch of 3: batch too large/);
  });

  it("says an HTTP 503 or a cut answer in words the retry rules take as a fault on the way, without naming the URL", async () => {
    let cut = false;
    const n = await node(() =>
      cut
        ? { body: '[{"jsonrpc":"2.0","id":0,"res' }
        : { status: 503, body: "service unavailable" },
    );
    servers.push(n.server);
    const send = await batchTransport(httpConfig(`${n.url}/?apikey=secret`));
    const unavailable = await send?.(CALLS).catch((e: unknown) => e);
    expect(isTransient(unavailable)).to.equal(true);
    expect(String(unavailable)).to.not.include("secret");
    cut = true;
    const truncated = await send?.(CALLS).catch((e: unknown) => e);
    expect(truncated).to.be.instanceOf(SyntaxError);
    expect(String(truncated)).to.not.include("secret");
  });

  it("is none on Hardhat's in-process network", async () => {
    expect(
      await batchTransport({ type: "edr-simulated" } as NetworkConfig),
    ).to.equal(undefined);
  });
});
