import { describeEndpoint } from "../clients/http.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { withRetry } from "../network/retry.js";

export type AlertLevel = "alert" | "warning" | "ok";

/** What a webhook receives, as JSON. */
interface AlertBody {
  level: AlertLevel;
  stage: number;
  text: string;
  /** The error's code (`VIP-E6021`) when an error raised the alert. */
  code?: string;
  at: string;
}

export interface AlertSink {
  /**
   * Writes the line to stderr at once and posts it to the webhook in the
   * background; never throws, never waits.
   */
  raise(level: AlertLevel, stage: bigint, text: string, code?: string): void;
  /** Waits for the posts still in flight, at most `timeoutMs`. */
  drain(timeoutMs: number): Promise<void>;
}

export interface AlertOptions {
  webhookUrl?: string;
  /** Where the lines go: an `ok` is news, not a warning. */
  write: (line: string, level: AlertLevel) => void;
  /** Retries of one post (with backoff); the work never waits for them. */
  retries?: number;
  minDelayMs?: number;
}

/**
 * Alerts: a line on stderr and, with a webhook, a POST of `{level, stage, text,
 * code, at}` (`code` when an error raised it). A webhook that fails is retried in the background and then reported on
 * stderr by its origin only: webhook URLs (Slack's, Discord's) carry their
 * secret in the path. Texts come from the autopilot's own messages, which never
 * hold a key.
 */
export function alertSink(options: AlertOptions): AlertSink {
  const inFlight = new Set<Promise<void>>();
  const post = async (url: string, body: AlertBody): Promise<void> => {
    await withRetry(
      `alert webhook ${describeEndpoint(url, "")}`,
      async () => {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(10_000),
        });
        // Drain the body so the connection is released; its content says
        // nothing the status does not.
        await response.arrayBuffer().catch(() => undefined);
        if (!response.ok)
          throw new VipError(ERRORS.AUTOPILOT.SETUP.WEBHOOK_REFUSED, {
            status: response.status,
          });
      },
      {
        retries: options.retries ?? 5,
        minDelayMs: options.minDelayMs ?? 500,
        maxDelayMs: 30_000,
        retryable: () => true,
      },
    );
  };
  return {
    raise(level, stage, text, code) {
      const coded = code === undefined ? text : `${code}: ${text}`;
      options.write(`autopilot ${level}: stage ${stage}: ${coded}`, level);
      const url = options.webhookUrl;
      if (url === undefined) return;
      const body: AlertBody = {
        level,
        stage: Number(stage),
        text,
        ...(code === undefined ? {} : { code }),
        at: new Date().toISOString(),
      };
      const sent: Promise<void> = post(url, body)
        .catch(() =>
          options.write(
            `autopilot warning: the alert webhook at ${describeEndpoint(url, "")} ` +
              `did not take an alert (stage ${stage}, ${level})`,
            "warning",
          ),
        )
        .finally(() => inFlight.delete(sent));
      inFlight.add(sent);
    },
    async drain(timeoutMs) {
      if (inFlight.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>(
        (resolve) => (timer = setTimeout(resolve, timeoutMs)),
      );
      await Promise.race([
        Promise.allSettled([...inFlight]).then(() => undefined),
        timeout,
      ]);
      clearTimeout(timer);
    },
  };
}
