import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import type { AutopilotMonitor } from "./monitor.js";

export interface Service {
  /** `host:port` as bound (the port the system chose when 0 was asked for). */
  address: string;
  close(): Promise<void>;
}

/**
 * `--listen`: a port alone, or `host:port`. A port alone binds 127.0.0.1: the
 * answers are harmless, but a service is reachable from elsewhere only when the
 * operator says so (`0.0.0.0:9464`).
 */
export function parseListen(raw: string): { host: string; port: number } {
  // A host name, an IPv4 address or a bracketed IPv6 one; never a URL.
  const match = /^(?:([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):)?(\d{1,5})$/.exec(
    raw.trim(),
  );
  const port = Number(match?.[2]);
  if (match === null || port > 65_535)
    throw new VipError(ERRORS.AUTOPILOT.SETUP.LISTEN_INVALID, { value: raw });
  const host = (match[1] ?? "127.0.0.1").replace(/^\[(.*)\]$/, "$1");
  return { host, port };
}

/**
 * Serves `/healthz` (200 while polls succeed, 503 with the reason after three
 * failed polls in a row; a JSON body either way) and `/metrics` (Prometheus'
 * text format). Anything else is a 404; only GET and HEAD.
 */
export async function startService(
  listen: string,
  monitor: AutopilotMonitor,
): Promise<Service> {
  const { host, port } = parseListen(listen);
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const answer = (status: number, type: string, body: string) => {
      response.writeHead(status, {
        "content-type": type,
        "cache-control": "no-store",
      });
      response.end(request.method === "HEAD" ? undefined : body);
    };
    if (request.method !== "GET" && request.method !== "HEAD") {
      answer(405, "text/plain", "only GET and HEAD\n");
      return;
    }
    if (url.pathname === "/healthz") {
      const health = monitor.health();
      answer(
        health.healthy ? 200 : 503,
        "application/json",
        JSON.stringify(health) + "\n",
      );
    } else if (url.pathname === "/metrics") {
      monitor.registry.metrics().then(
        (text) => answer(200, monitor.registry.contentType, text),
        (error: unknown) => answer(500, "text/plain", `${String(error)}\n`),
      );
    } else answer(404, "text/plain", "try /healthz or /metrics\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new VipError(
          ERRORS.AUTOPILOT.SETUP.LISTEN_FAILED,
          { listen, host, port, reason: error.code ?? error.message },
          error,
        ),
      ),
    );
    server.listen(port, host, resolve);
  });
  const bound = server.address() as AddressInfo;
  return {
    address: `${bound.address.includes(":") ? `[${bound.address}]` : bound.address}:${bound.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
