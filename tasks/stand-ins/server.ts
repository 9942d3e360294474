import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

export interface StandInServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

/**
 * An answer; `hold` leaves the request unanswered (a server that took a request
 * and hangs); `drop` closes the connection without a word (a host that is down
 * or a proxy that lost its upstream).
 */
export type Handler = (
  request: IncomingMessage,
  body: string,
) => {
  status: number;
  body: string;
  contentType?: string;
  hold?: boolean;
  drop?: boolean;
};

/**
 * A small HTTP server on 127.0.0.1 and a free port, answering with `handler`.
 * Loopback only.
 */
export async function startServer(handler: Handler): Promise<StandInServer> {
  const server = createServer(
    (request: IncomingMessage, response: ServerResponse) => {
      let body = "";
      request.setEncoding("utf8");
      request.on("data", (chunk: string) => (body += chunk));
      request.on("end", () => {
        const answer = handler(request, body);
        if (answer.hold === true) return;
        if (answer.drop === true) {
          request.socket.destroy();
          return;
        }
        response.writeHead(answer.status, {
          "content-type": answer.contentType ?? "application/json",
        });
        response.end(answer.body);
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export function json(value: unknown, status = 200) {
  return { status, body: JSON.stringify(value) };
}
