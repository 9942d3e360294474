import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

/**
 * What the proxy does to a matching request:
 * - `reset`: drops the connection before forwarding;
 * - `429` / `503`: answers with that status, not forwarding;
 * - `slow`: forwards after `delayMs`;
 * - `lose-answer`: forwards, then drops the connection instead of answering (the node acted, the client never hears);
 * - `hold-request`: keeps the request without forwarding, until the client goes away or the test
 *   `release()`s it (then it is forwarded and answered, late);
 * - `hold-answer`: forwards, then keeps the answer, until the client goes away.
 */
type Fault =
  | "reset"
  | "429"
  | "503"
  | "slow"
  | "lose-answer"
  | "hold-request"
  | "hold-answer";

interface FaultRule {
  /** The JSON-RPC method it applies to; `*` for every request. */
  method: string;
  /** Applies only to requests whose raw body this holds for. */
  match?: (body: string) => boolean;
  fault: Fault;
  /** How many matching requests it applies to (Infinity: all). */
  times: number;
  /** Lets this many matching requests through before it applies. */
  after?: number;
  delayMs?: number;
}

export interface FaultProxy {
  url: string;
  rules: FaultRule[];
  /** Faults injected so far, by kind. */
  injected: Record<string, number>;
  /** Requests seen so far, by method. */
  seen: Record<string, number>;
  /** Resolves when the proxy next holds a request (after this call). */
  held(): Promise<void>;
  /** Requests held now (`hold-request`). */
  holding(): number;
  /**
   * Forwards the requests held now and answers them (or, with `answer:
   * false`, never answers: the node acted, the client never hears); how many.
   */
  release(options?: { answer?: boolean }): Promise<number>;
  close(): Promise<void>;
}

/**
 * A JSON-RPC proxy on 127.0.0.1 in front of `upstream` that injects the faults
 * of its `rules`.
 */
export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const rules: FaultRule[] = [];
  const injected: Record<string, number> = {};
  const seen: Record<string, number> = {};
  const matched = new Map<FaultRule, number>();
  let waiting: (() => void)[] = [];
  const onHeld = () => {
    for (const resolve of waiting) resolve();
    waiting = [];
  };

  const holdingNow: { body: string; response: ServerResponse }[] = [];
  const forward = async (body: string) => {
    const answer = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    return { status: answer.status, text: await answer.text() };
  };

  const server = createServer(
    (request: IncomingMessage, response: ServerResponse) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      // Every fault is caught inside: the stream never sees a rejection.
      request.on(
        "end",
        () =>
          void (async () => {
            let method = "";
            try {
              const parsed = JSON.parse(body) as
                { method?: string } | { method?: string }[];
              method =
                (Array.isArray(parsed) ? parsed[0]?.method : parsed.method) ??
                "";
            } catch {
              // not JSON-RPC: forwarded as is
            }
            seen[method] = (seen[method] ?? 0) + 1;
            const rule = rules.find((r) => {
              if (r.method !== method && r.method !== "*") return false;
              if (r.match !== undefined && !r.match(body)) return false;
              const count = matched.get(r) ?? 0;
              return count < (r.after ?? 0) + r.times;
            });
            let fault: Fault | undefined;
            if (rule !== undefined) {
              const count = (matched.get(rule) ?? 0) + 1;
              matched.set(rule, count);
              if (count > (rule.after ?? 0)) fault = rule.fault;
            }
            if (fault !== undefined)
              injected[fault] = (injected[fault] ?? 0) + 1;
            try {
              if (fault === "reset") return request.socket.destroy();
              if (fault === "429" || fault === "503") {
                response.writeHead(Number(fault), {
                  "content-type": "text/plain",
                });
                return response.end(
                  fault === "429" ? "Too Many Requests" : "Service Unavailable",
                );
              }
              if (fault === "hold-request") {
                holdingNow.push({ body, response });
                onHeld();
                return; // forwarded and answered only if released
              }
              if (fault === "slow")
                await new Promise((resolve) =>
                  setTimeout(resolve, rule?.delayMs ?? 1000),
                );
              const answer = await forward(body);
              if (fault === "lose-answer") return request.socket.destroy();
              if (fault === "hold-answer") {
                onHeld();
                return; // the node acted; the answer never comes
              }
              response.writeHead(answer.status, {
                "content-type": "application/json",
              });
              response.end(answer.text);
            } catch {
              request.socket.destroy();
            }
          })(),
      );
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    rules,
    injected,
    seen,
    held: () => new Promise<void>((resolve) => waiting.push(resolve)),
    holding: () => holdingNow.length,
    release: async ({ answer: answered = true } = {}) => {
      const released = holdingNow.splice(0);
      for (const { body, response } of released) {
        try {
          const answer = await forward(body);
          if (!answered) continue;
          response.writeHead(answer.status, {
            "content-type": "application/json",
          });
          response.end(answer.text);
        } catch {
          response.destroy();
        }
      }
      return released.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
