import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import type { HttpNetworkConfig } from "hardhat/types/config";

/** What the stand-in answers a request with: a status and a body (JSON unless a string). */
export interface StandInReply {
  status?: number;
  body: unknown;
}

export interface RpcStandIn {
  url: string;
  server: Server;
  /** Every request's parsed body and headers, in order. */
  seen: { body: unknown; headers: IncomingHttpHeaders }[];
}

/**
 * A JSON-RPC node on 127.0.0.1 that answers each request (one call, or a
 * batch) with `reply(body, n)`, n counting requests from 0: what a JSON-RPC
 * 2.0 server, or a gateway in front of one, may answer.
 */
export async function startRpcStandIn(
  reply: (body: unknown, n: number) => StandInReply,
): Promise<RpcStandIn> {
  const seen: RpcStandIn["seen"] = [];
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => {
      const body: unknown = JSON.parse(text);
      const answer = reply(body, seen.length);
      seen.push({ body, headers: req.headers });
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

/** An HTTP network's config for `url`, as Hardhat resolves one, with a bearer header. */
export function httpNetworkConfig(url: string): HttpNetworkConfig {
  return {
    type: "http",
    url: { _type: "ResolvedConfigurationVariable", get: async () => url },
    httpHeaders: { authorization: "Bearer test" },
    timeout: 5_000,
  } as unknown as HttpNetworkConfig;
}
